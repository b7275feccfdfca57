/**
 * Stallions ranked for a mare (`/explorer/accouplements?mere=ID…`, issue 28): the parameters of
 * `GET /v1/accouplements/etalons` as a GET form (the mare picked with the home's combobox, or by
 * her id), then the ranking, each foal's coefficient drawn as a bar across which a line marks the
 * mean F of the mare's breed (its reference population), each row linking the test mating's page
 * (`matingPage.ts`). Without a mare the form alone is shown; a mare's record page links here.
 */
import type { Etalons, Genetique, Meta } from "@equides/domain"
import { horseCombobox } from "./home.ts"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, nameOf, rankingPager } from "./links.ts"
import { EXPLORER_MATINGS, matingPath, type Pairs, queryString, valueOf } from "./paths.ts"

export type MatingsOutcome =
  | { readonly kind: "form" }
  | { readonly kind: "ranking"; readonly ranking: Etalons; readonly reference: Genetique["reference"] }
  | { readonly kind: "refused"; readonly detail: string; readonly indice: string | undefined }

/** The bars' scale: a foal's F of 0.25 (a parent and its offspring, full siblings) fills them. */
const SCALE = 0.25

/** A foal's F, three decimals of a percent (`0.0625` → `6,25 %`). */
export const foalPercent = (x: number): string => `${(100 * x).toLocaleString("fr-FR", { maximumFractionDigits: 3 })}\u00a0%`

/** A share of the bar's width (0..100), from a coefficient. */
const across = (x: number): string => (100 * Math.min(1, x / SCALE)).toFixed(2)

/**
 * The foal's F as a bar, the breed's mean F (when known) as a vertical mark across it: one SVG per
 * row (no inline style under the pages' policy), the marks aligned from row to row. Hidden from
 * assistive technologies: the value is written beside it and the mean in the legend.
 */
const bar = (coefficient: number, mean: number | undefined): Html =>
  html`<svg class="foal-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="track" width="100" height="10"></rect><rect class="bar" width="${
    across(coefficient)
  }" height="10"></rect>${mean === undefined ? "" : html`<line class="mean" x1="${across(mean)}" x2="${across(mean)}" y1="0" y2="10"></line>`}</svg>`

/** `mare`: the name of the mare ranked for, shown in the combobox. */
const form = (pairs: Pairs, mare: string | undefined): Html =>
  html`<form class="filters" method="get" action="${EXPLORER_MATINGS}">
<fieldset><legend>Jument</legend>
<div class="search">${
    horseCombobox({
      id: "f-mere-nom",
      label: "Nom de la jument",
      fill: "f-mere",
      value: mare,
      sexe: "Femelle",
      help: "Tapez le début de son nom (seules les juments sont suggérées) : les flèches parcourent les suggestions, Entrée écrit son identifiant ci-dessous."
    })
  }</div>
<label for="f-mere">Identifiant de la jument</label><input type="text" id="f-mere" name="mere" value="${valueOf(pairs, "mere")}" required>
</fieldset>
<fieldset><legend>Étalons</legend>
<label for="f-race">Race</label><input type="text" id="f-race" name="race" value="${valueOf(pairs, "race")}">
<label for="f-annee_min">Nés au plus tôt en</label><input type="number" id="f-annee_min" name="annee_min" value="${valueOf(pairs, "annee_min")}">
<label for="f-annee_max">Nés au plus tard en</label><input type="number" id="f-annee_max" name="annee_max" value="${valueOf(pairs, "annee_max")}">
<label for="f-coefficient_max">Coefficient au plus</label><input type="number" id="f-coefficient_max" name="coefficient_max" min="0" max="1" step="any" value="${
    valueOf(pairs, "coefficient_max")
  }" placeholder="0,0625">
</fieldset>
<button type="submit">Classer</button>
</form>`

const results = (pairs: Pairs, ranking: Etalons, reference: Genetique["reference"]): Html => {
  const { total, offset } = ranking.pagination
  const nav = rankingPager(EXPLORER_MATINGS, pairs, ranking.pagination, ranking.donnees.length)
  const mere = ranking.mere
  const mean = reference?.consanguinite_moyenne
  return html`<p role="status"><strong>${frenchNumber(total)}</strong> étalon${total > 1 ? "s" : ""} classé${total > 1 ? "s" : ""} pour ${horseLink(mere.id, mere.nom)}${
    mere.race === "" ? "" : html` (${mere.race})`
  }.</p>
${total === 0 ? "" : html`<p class="legend">Barre : F du poulain, de 0 à ${foalPercent(SCALE)}${
    reference === null
      ? " (la race de la jument n'a pas de population de référence : pas de moyenne)."
      : html` ; trait vertical : F moyen des ${reference.race} nés de ${String(reference.annee_min)} à ${String(reference.annee_max)}, ${
        foalPercent(reference.consanguinite_moyenne)
      }.`
  }</p>
${nav}<div class="table-wrap"><table>
<caption class="skip">Étalons par coefficient croissant</caption>
<thead><tr><th scope="col" class="num">Rang</th><th scope="col">Étalon</th><th scope="col">Race</th><th scope="col" class="num">Naissance</th><th scope="col">F du poulain</th><th scope="col" class="num">Parenté moyenne avec la race</th><th scope="col" class="num">Produits</th><th scope="col">Poulain</th></tr></thead>
<tbody>
${ranking.donnees.map((d, i) =>
    html`<tr><td class="num">${frenchNumber(offset + i + 1)}</td><td>${horseLink(d.etalon.id, d.etalon.nom)}</td><td>${
      d.etalon.race === "" ? ABSENT : d.etalon.race
    }</td><td class="num">${d.etalon.annee_naissance ?? ABSENT}</td><td class="foal">${bar(d.coefficient, mean)} ${foalPercent(d.coefficient)}${
      mean === undefined ? "" : html`<span class="skip">${d.coefficient > mean ? ", au-dessus" : d.coefficient < mean ? ", au-dessous" : ", au niveau"} de la moyenne de la race</span>`
    }</td><td class="num">${d.parente_moyenne === null ? ABSENT : foalPercent(d.parente_moyenne)}</td><td class="num">${
      frenchNumber(d.produits)
    }</td><td><a href="${matingPath(d.etalon.id, mere.id)}">essai<span class="skip"> : poulain de ${nameOf(d.etalon.nom)} et ${nameOf(mere.nom)}</span></a></td></tr>`
  )}
</tbody>
</table></div>${nav}`}`
}

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/accouplements/etalons` with the same). */
export const etalonsPage = (meta: Meta, pairs: Pairs, outcome: MatingsOutcome): Html =>
  layout(meta, {
    title: "Choisir un étalon",
    json: `/v1/accouplements/etalons${queryString(pairs)}`,
    script: true,
    body: html`<h1>Choisir un étalon</h1>
<p>Chaque étalon retenu par les filtres, classé par le coefficient de consanguinité F du poulain qu'il donnerait avec la jument, sur toutes les
générations connues, la jauge allant de 0 à ${foalPercent(SCALE)} ; un trait y marque le F moyen de la race de la jument. La parenté moyenne avec la population de référence de la race de la jument aide à
préférer les étalons qui gardent la race diverse. Définitions : <a href="/documentation#consanguinite">documentation</a>.</p>
<div class="list-layout">
<div>${form(pairs, outcome.kind === "ranking" ? outcome.ranking.mere.nom : undefined)}</div>
<div>${
      outcome.kind === "form"
        ? html`<p>Donner l'identifiant d'une jument, ou suivre « Choisir un étalon » depuis sa fiche.</p>`
        : outcome.kind === "refused"
        ? html`<div class="note" role="alert"><p><strong>Paramètre refusé.</strong> ${outcome.detail}</p>${
          outcome.indice === undefined ? "" : html`<p>${outcome.indice}</p>`
        }</div>`
        : results(pairs, outcome.ranking, outcome.reference)
    }</div>
</div>`
  })
