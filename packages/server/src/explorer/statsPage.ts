/**
 * Statistics (`/explorer/stats`): the figures of `GET /v1/stats`, then breakdowns of the whole
 * set (`GET /v1/stats/repartition`) as inline SVG bar charts, each followed by a table of the same
 * numbers (the chart is a picture; the table is what a screen reader and a copy-paste get).
 */
import type { Meta, Repartition, Stats } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"

export interface Breakdown {
  readonly title: string
  /** The API request it comes from. */
  readonly json: string
  readonly repartition: Repartition
}

const BAR = 18
const GAP = 6
const LABEL = 170
const WIDTH = 640
const VALUE = 80

const shorten = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/** Horizontal bars, longest = full width; numbers also written at the end of each bar. */
export const barChart = (id: string, title: string, repartition: Repartition): Html => {
  const rows = repartition.donnees
  const max = rows.reduce((m, r) => Math.max(m, r.nombre ?? 0), 0)
  const height = rows.length * (BAR + GAP) + GAP
  const scale = max === 0 ? 0 : (WIDTH - LABEL - VALUE) / max
  return html`<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-titre" focusable="false">
<title id="${id}-titre">${title} (diagramme en barres ; chiffres dans le tableau qui suit)</title>
${
    rows.map((r, i) => {
      const y = GAP + i * (BAR + GAP)
      const n = r.nombre ?? 0
      const w = Math.max(n > 0 ? 1 : 0, Math.round(n * scale))
      const label = r.valeur === undefined || r.valeur === "" ? "(vide)" : r.valeur
      return html`<text class="label" x="${LABEL - 6}" y="${y + BAR - 5}" text-anchor="end">${shorten(label, 24)}</text><rect class="bar" x="${LABEL}" y="${y}" width="${w}" height="${BAR}"></rect><text class="value" x="${
        LABEL + w + 4
      }" y="${y + BAR - 5}">${frenchNumber(n)}</text>`
    })
  }
</svg>`
}

const table = (title: string, repartition: Repartition): Html =>
  html`<div class="table-wrap"><table>
<caption>${title} : ${frenchNumber(repartition.effectif_affiche)} fiches sur ${frenchNumber(repartition.effectif_filtre)} réparties</caption>
<thead><tr><th scope="col">Valeur</th><th scope="col" class="num">Fiches</th></tr></thead>
<tbody>${
    repartition.donnees.map((r) =>
      html`<tr><td>${r.valeur === undefined || r.valeur === "" ? "(vide)" : r.valeur}</td><td class="num">${frenchNumber(r.nombre ?? 0)}</td></tr>`
    )
  }</tbody>
</table></div>`

const figure = (b: Breakdown, i: number): Html =>
  html`<section>
<h2 id="repartition-${i}">${b.title}</h2>
<figure class="chart">${barChart(`graphique-${i}`, b.title, b.repartition)}</figure>
${table(b.title, b.repartition)}
<p class="json"><a href="${b.json}">JSON</a> (<code>GET ${b.json}</code>)</p>
</section>`

const count = (n: number | undefined): string => (n === undefined ? "—" : frenchNumber(n))
const year = (n: number | null | undefined): string => (n === undefined || n === null ? "—" : String(n))

const figures = (s: Stats): ReadonlyArray<readonly [string, string]> => [
  ["Fiches", count(s.total)],
  ["Avec au moins un parent identifié", count(s.avec_filiation)],
  ["Sans filiation", count(s.sans_filiation)],
  ["Avec au moins un indice publié", count(s.avec_performances)],
  ["Sans indice publié", count(s.sans_performances)],
  ["Races (valeurs distinctes du champ race)", count(s.nombre_de_races)],
  ["Robes", count(s.nombre_de_robes)],
  ["Disciplines", count(s.nombre_de_disciplines)],
  ["Première année de naissance (aberrantes comprises)", year(s.annee_naissance_min)],
  ["Dernière année de naissance", year(s.annee_naissance_max)]
]

export const statsPage = (meta: Meta, stats: Stats, breakdowns: ReadonlyArray<Breakdown>): Html =>
  layout(meta, {
    title: "Statistiques",
    json: "/v1/stats",
    body: html`<h1>Statistiques</h1>
<div class="table-wrap"><table>
<caption>Chiffres globaux</caption>
<tbody>${
      figures(stats).map(([label, value]) =>
        html`<tr><th scope="row">${label}</th><td class="num">${value}</td></tr>`
      )
    }</tbody>
</table></div>
${stats.avertissement === undefined ? "" : html`<p class="note">${stats.avertissement}</p>`}
${stats.par_sexe === undefined ? "" : figure({ title: "Par sexe", json: "/v1/stats", repartition: fromTranches(stats) }, 0)}
${breakdowns.map((b, i) => figure(b, i + 1))}`
  })

/** `par_sexe` of the stats as a breakdown of the whole set. */
const fromTranches = (stats: Stats): Repartition => {
  const donnees = stats.par_sexe ?? []
  const total = stats.total ?? 0
  return { dimension: "sexe", effectif_filtre: total, effectif_affiche: donnees.reduce((s, t) => s + (t.nombre ?? 0), 0), donnees }
}
