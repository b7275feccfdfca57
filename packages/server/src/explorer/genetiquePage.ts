/**
 * A breed's genetics (`/explorer/genetique?race=…`): the figures of `GET /v1/stats/genetique` with
 * the same query, mean F and Ne by birth year drawn as two SVG line charts, each followed by the
 * table of the same numbers (as on the statistics page), then the reference population's founders
 * and its 20 major ancestors as links. Without a `race` the form alone is shown, with links to the
 * most numerous breeds: the whole extract's first figures cost a pass over every record, and the
 * API gives them (`/v1/stats/genetique`).
 */
import type { Meta, StatsGenetique } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink } from "./links.ts"
import { EXPLORER_GENETICS, genetiquePath, type Pairs, queryString, valueOf } from "./paths.ts"
import { decimal } from "./reproducteursPage.ts"

export type GenetiqueOutcome =
  | { readonly kind: "form" }
  | { readonly kind: "figures"; readonly stats: StatsGenetique }
  | { readonly kind: "refused"; readonly detail: string; readonly indice: string | undefined }

/** Breeds offered as links on the form alone. */
const BREEDS_LISTED = 12

/** A share as a French percentage with two decimals (`0.0126` → `1,26 %`). */
export const percent = (share: number): string =>
  `${(100 * share).toLocaleString("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}\u00a0%`

/** A figure the definitions leave undefined here (Ne without ΔF, f_a without ancestors): not an absent field. */
const UNDEFINED = html`<span class="muted">non défini</span>`


const WIDTH = 640
const HEIGHT = 220
const LEFT = 70
const RIGHT = 16
const TOP = 16
const BOTTOM = 28

interface Point {
  readonly annee: number
  readonly value: number | null
}

/**
 * A line over the birth years, one step per listed year (an aberrant year of the source stays at its
 * place in the order rather than stretching the axis); the line breaks where a value is null.
 */
const lineChart = (id: string, title: string, points: ReadonlyArray<Point>, label: (value: number) => string): Html => {
  const max = points.reduce((m, p) => (p.value === null ? m : Math.max(m, p.value)), 0)
  const step = points.length > 1 ? (WIDTH - LEFT - RIGHT) / (points.length - 1) : 0
  const x = (i: number) => Math.round(LEFT + i * step)
  const y = (value: number) => Math.round(HEIGHT - BOTTOM - (max === 0 ? 0 : (value / max) * (HEIGHT - TOP - BOTTOM)))
  const segments: Array<string> = []
  let current: Array<string> = []
  for (const [i, p] of points.entries()) {
    if (p.value === null) {
      if (current.length > 0) segments.push(current.join(" "))
      current = []
    } else current.push(`${x(i)},${y(p.value)}`)
  }
  if (current.length > 0) segments.push(current.join(" "))
  const first = points[0]
  const last = points[points.length - 1]
  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-titre" focusable="false">
<title id="${id}-titre">${title} (courbe ; chiffres dans le tableau qui suit)</title>
<line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH - RIGHT}" y2="${HEIGHT - BOTTOM}"></line>
<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${HEIGHT - BOTTOM}"></line>
<text class="label" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${label(max)}</text>
<text class="label" x="${LEFT - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">${label(0)}</text>
${first === undefined ? "" : html`<text class="label" x="${LEFT}" y="${HEIGHT - 8}">${String(first.annee)}</text>`}
${last === undefined || last === first ? "" : html`<text class="label" x="${WIDTH - RIGHT}" y="${HEIGHT - 8}" text-anchor="end">${String(last.annee)}</text>`}
${segments.map((s) => html`<polyline class="line" points="${s}"></polyline>`)}
</svg>`
}

const form = (pairs: Pairs, races: ReadonlyArray<string>): Html =>
  html`<form class="filters" method="get" action="${EXPLORER_GENETICS}">
<fieldset><legend>Race</legend>
<label for="g-race">Race</label><input type="text" id="g-race" name="race" list="g-races" value="${valueOf(pairs, "race")}">
<datalist id="g-races">${races.map((r) => html`<option value="${r}"></option>`)}</datalist>
</fieldset>
<fieldset><legend>Nés</legend>
<label for="g-annee_min">au plus tôt en</label><input type="number" id="g-annee_min" name="annee_min" value="${valueOf(pairs, "annee_min")}">
<label for="g-annee_max">au plus tard en</label><input type="number" id="g-annee_max" name="annee_max" value="${valueOf(pairs, "annee_max")}">
</fieldset>
<button type="submit">Afficher</button>
</form>`

const years = (stats: StatsGenetique): Html => {
  const annees = stats.annees
  if (annees.length === 0) return html`<p>Aucune fiche de cette race n'a d'année de naissance dans l'intervalle demandé.</p>`
  const f = annees.map((a) => ({ annee: a.annee, value: a.consanguinite_moyenne }))
  const ne = annees.map((a) => ({ annee: a.annee, value: a.taille_efficace }))
  return html`<h2 id="par-annee">Par année de naissance</h2>
<figure class="chart">${lineChart("graphique-f", "Consanguinité moyenne (F) par année de naissance", f, percent)}
<figcaption>Consanguinité moyenne (F) par année de naissance</figcaption></figure>
<figure class="chart">${lineChart("graphique-ne", "Taille efficace (Ne) par année de naissance", ne, (n) => decimal(Math.round(n)))}
<figcaption>Taille efficace (Ne) par année de naissance ; pas de point où Ne n'est pas défini</figcaption></figure>
<div class="table-wrap"><table>
<caption>Consanguinité et taille efficace par année de naissance</caption>
<thead><tr><th scope="col">Année</th><th scope="col" class="num">Fiches</th><th scope="col" class="num">F moyen</th><th scope="col" class="num">F &gt; 0</th><th scope="col" class="num">F ≥ 12,5 %</th><th scope="col" class="num">Générations équivalentes</th><th scope="col" class="num">Ne</th></tr></thead>
<tbody>${
    annees.map((a) =>
      html`<tr><td>${String(a.annee)}</td><td class="num">${frenchNumber(a.effectif)}</td><td class="num">${percent(a.consanguinite_moyenne)}</td><td class="num">${
        frenchNumber(a.consanguins)
      }</td><td class="num">${frenchNumber(a.au_moins_12_5)}</td><td class="num">${decimal(a.generations_equivalentes_moyennes)}</td><td class="num">${
        a.taille_efficace === null ? UNDEFINED : decimal(Math.round(a.taille_efficace))
      }</td></tr>`
    )
  }</tbody>
</table></div>`
}

const population = (reference: NonNullable<StatsGenetique["reference"]>): Html =>
  html`<h2 id="reference">Population de référence : nés ${String(reference.annee_min)}–${String(reference.annee_max)}</h2>
<div class="table-wrap"><table>
<caption>Fondateurs et ancêtres de ${frenchNumber(reference.effectif)} fiches</caption>
<tbody>
<tr><th scope="row">Fondateurs efficaces (f<sub>e</sub>)</th><td class="num">${decimal(reference.fondateurs_efficaces)}</td></tr>
<tr><th scope="row">Ancêtres efficaces (f<sub>a</sub>)</th><td class="num">${reference.ancetres_efficaces === null ? UNDEFINED : decimal(reference.ancetres_efficaces)}</td></tr>
<tr><th scope="row">Ancêtres retenus</th><td class="num">${frenchNumber(reference.ancetres_retenus)}</td></tr>
<tr><th scope="row">Contribution expliquée</th><td class="num">${percent(reference.contribution_expliquee)}</td></tr>
<tr><th scope="row">Intervalle de génération (ans)</th><td class="num">${reference.intervalle_generation === null ? UNDEFINED : decimal(reference.intervalle_generation)}</td></tr>
</tbody>
</table></div>
${reference.principaux_ancetres.length === 0 ? "" : html`<div class="table-wrap"><table>
<caption>Les ${frenchNumber(reference.principaux_ancetres.length)} principaux ancêtres, dans l'ordre du choix (contribution marginale)</caption>
<thead><tr><th scope="col" class="num">Rang</th><th scope="col">Ancêtre</th><th scope="col">Race</th><th scope="col">Sexe</th><th scope="col" class="num">Naissance</th><th scope="col" class="num">Contribution</th></tr></thead>
<tbody>${
    reference.principaux_ancetres.map((a, i) =>
      html`<tr><td class="num">${frenchNumber(i + 1)}</td><td>${horseLink(a.id, a.nom)}</td><td>${a.race === "" ? ABSENT : a.race}</td><td>${a.sexe}</td><td class="num">${
        a.annee_naissance === null ? ABSENT : String(a.annee_naissance)
      }</td><td class="num">${percent(a.contribution)}</td></tr>`
    )
  }</tbody>
</table></div>`}`

const figures = (stats: StatsGenetique): Html =>
  html`${years(stats)}
${stats.reference === null ? html`<p>Cette race n'a pas de population de référence (aucune fiche née une année connue).</p>` : population(stats.reference)}`

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/stats/genetique` with the same). */
export const genetiquePage = (meta: Meta, pairs: Pairs, outcome: GenetiqueOutcome, races: ReadonlyArray<string>): Html => {
  const race = outcome.kind === "figures" ? outcome.stats.race : null
  return layout(meta, {
    title: race === null ? "Génétique des races" : `Génétique : ${race}`,
    json: `/v1/stats/genetique${queryString(pairs)}`,
    body: html`<h1>${race === null ? "Génétique des races" : html`Génétique : ${race}`}</h1>
<p>Consanguinité (F de Wright sur toutes les générations connues) et taille efficace (Ne) par année de naissance, fondateurs et principaux ancêtres
de la population de référence de la race (nés les 5 dernières années). <a href="/documentation#genetique">Définitions</a>.</p>
${form(pairs, races)}
${
      outcome.kind === "form"
        ? html`<p>Choisir une race :</p><ul class="breeds">${races.slice(0, BREEDS_LISTED).map((r) => html`<li><a href="${genetiquePath(r)}">${r}</a></li>`)}</ul>`
        : outcome.kind === "refused"
        ? html`<div class="note" role="alert"><p><strong>Paramètre refusé.</strong> ${outcome.detail}</p>${
          outcome.indice === undefined ? "" : html`<p>${outcome.indice}</p>`
        }</div>`
        : figures(outcome.stats)
    }`
  })
}
