/**
 * A record (`/explorer/equides/{id}`): every field of `GET /v1/equides/{id}`, absent ones said so;
 * parents and grandparents (from the parents' own records) as links, a dangling parent by name;
 * performance indices as a table; its F, equivalent generations and its breed's reference mean F
 * (linked to the breed's genetics page); links to the pedigree and the progeny.
 */
import type { Equide, Genetique, IndiceDescendance, Meta, Performance, Reference, StatistiquesDescendance } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, nameOf, parentLink } from "./links.ts"
import { percent } from "./genetiquePage.ts"
import { genetiquePath, matingsPath, pedigreePath, progenyPath, siresPath } from "./paths.ts"
import { decimal } from "./reproducteursPage.ts"
import { barChart } from "./statsPage.ts"

/** A parent's own parents, read from its record (undefined when the parent has no record). */
export interface Grandparents {
  readonly pere?: Reference | undefined
  readonly mere?: Reference | undefined
}

export interface RecordView {
  readonly equide: Equide
  readonly paternal: Grandparents | undefined
  readonly maternal: Grandparents | undefined
  /** Its offspring's statistics, when it has offspring. */
  readonly statistiques?: StatistiquesDescendance | undefined
  /** Its genetics over all known generations (`/v1/equides/{id}/genetique` without the mean coancestry). */
  readonly genetique: Pick<Genetique, "consanguinite" | "generations_equivalentes" | "reference">
}

const orAbsent = (value: string | number | undefined): Html | string =>
  value === undefined || value === "" ? ABSENT : typeof value === "number" ? String(value) : value

const parentage = (label: string, parent: Reference | undefined, grandparents: Grandparents | undefined): Html =>
  html`<dt>${label}</dt><dd>${parentLink(parent)}${
    grandparents === undefined ? "" : html`<ul>
<li>son père : ${parentLink(grandparents.pere)}</li>
<li>sa mère : ${parentLink(grandparents.mere)}</li>
</ul>`
  }</dd>`

const performanceRows = (performance: Performance): ReadonlyArray<Html> => {
  const indices = performance.indices ?? []
  if (indices.length === 0) {
    return [html`<tr><td>${orAbsent(performance.discipline)}</td><td colspan="5">${orAbsent(performance.texte)}</td></tr>`]
  }
  return indices.map((index) =>
    html`<tr><td>${orAbsent(performance.discipline)}</td><td>${orAbsent(index.code)}</td><td class="num">${orAbsent(index.valeur)}</td>
<td class="num">${index.coefficient === undefined ? ABSENT : index.coefficient.toLocaleString("fr-FR")}</td><td class="num">${orAbsent(index.annee)}</td><td>${orAbsent(index.appreciation)}</td></tr>`
  )
}

const performances = (list: ReadonlyArray<Performance> | undefined): Html =>
  list === undefined || list.length === 0
    ? html`<p>Aucun indice publié (ce qui ne signifie pas que l'équidé n'a jamais couru ni concouru).</p>`
    : html`<div class="table-wrap"><table>
<caption class="skip">Indices de performance</caption>
<thead><tr><th scope="col">Discipline</th><th scope="col">Indice</th><th scope="col" class="num">Valeur</th><th scope="col" class="num">Coefficient</th><th scope="col" class="num">Année</th><th scope="col">Appréciation</th></tr></thead>
<tbody>
${list.flatMap(performanceRows)}
</tbody>
</table></div>
${list.map((p) => (p.texte === undefined ? "" : html`<p class="muted">${orAbsent(p.discipline)} : ${p.texte}</p>`))}`

const best = (indice: IndiceDescendance): Html =>
  html`<ol class="best">${indice.meilleurs.map((m) => html`<li>${horseLink(m.id, m.nom)} (${decimal(m.valeur)})</li>`)}</ol>`

/** The offspring's statistics: years as a bar chart, then sex, breed and index tables. */
const offspring = (id: string, s: StatistiquesDescendance): Html => {
  const years = { dimension: "annee_naissance", effectif_filtre: s.produits, effectif_affiche: s.produits - s.sans_annee, donnees: s.par_annee.map((y) => ({ valeur: String(y.annee), nombre: y.nombre })) }
  const json = `/v1/equides/${id}/descendance/statistiques`
  return html`<h2>Produits</h2>
<p>${frenchNumber(s.produits)} produit${s.produits > 1 ? "s" : ""}, ${frenchNumber(s.petits_produits)} petit${s.petits_produits > 1 ? "s" : ""}-produit${
    s.petits_produits > 1 ? "s" : ""
  } ; ${frenchNumber(s.avec_indices)} produit${s.avec_indices > 1 ? "s" : ""} avec au moins un indice. ${
    s.par_sexe.map((t, i) => `${i === 0 ? "" : ", "}${frenchNumber(t.nombre ?? 0)} ${t.valeur ?? ""}`).join("")
  }${s.par_race.length === 0 ? "" : ` ; races : ${s.par_race.slice(0, 5).map((t) => `${t.valeur ?? ""} (${frenchNumber(t.nombre ?? 0)})`).join(", ")}`}.</p>
${s.par_annee.length === 0 ? "" : html`<figure class="chart">${barChart("produits-annees", "Produits par année de naissance", years)}</figure>
<div class="table-wrap"><table>
<caption>Produits par année de naissance${s.sans_annee === 0 ? "" : ` (${frenchNumber(s.sans_annee)} sans année)`}</caption>
<thead><tr><th scope="col">Année</th><th scope="col" class="num">Produits</th></tr></thead>
<tbody>${s.par_annee.map((y) => html`<tr><td>${String(y.annee)}</td><td class="num">${frenchNumber(y.nombre)}</td></tr>`)}</tbody>
</table></div>`}
${s.indices.length === 0 ? html`<p>Aucun produit ne porte d'indice lisible.</p>` : html`<div class="table-wrap"><table>
<caption>Indices des produits (valeur la plus récente de chaque produit)</caption>
<thead><tr><th scope="col">Indice</th><th scope="col">Discipline</th><th scope="col" class="num">Produits</th><th scope="col" class="num">Moyenne</th><th scope="col" class="num">Médiane</th><th scope="col" class="num">Maximum</th><th scope="col">Meilleurs produits</th></tr></thead>
<tbody>${
    s.indices.map((i) =>
      html`<tr><td><a href="${siresPath([["code", i.code]])}">${i.code}</a></td><td>${i.discipline ?? ABSENT}</td><td class="num">${frenchNumber(i.produits)}</td><td class="num">${
        decimal(i.moyenne)
      }</td><td class="num">${decimal(i.mediane)}</td><td class="num">${decimal(i.maximum)}</td><td>${best(i)}</td></tr>`
    )
  }</tbody>
</table></div>`}
<p class="json"><a href="${json}">JSON</a> (<code>GET ${json}</code>)</p>`
}

const genetics = (id: string, g: RecordView["genetique"]): Html => {
  const json = `/v1/equides/${id}/genetique`
  const reference = g.reference
  return html`<h2>Génétique</h2>
<dl class="fields">
<dt>Consanguinité (F, toutes générations connues)</dt><dd>${percent(g.consanguinite)}</dd>
<dt>Générations équivalentes connues</dt><dd>${decimal(g.generations_equivalentes)}</dd>
<dt>Consanguinité moyenne de sa race</dt><dd>${
    reference === null
      ? html`<span class="muted">pas de population de référence (race non renseignée ou sans naissance connue)</span>`
      : html`<a href="${genetiquePath(reference.race)}">${reference.race} nés ${String(reference.annee_min)}–${String(reference.annee_max)} : ${
        percent(reference.consanguinite_moyenne)
      }</a> <span class="muted">(${frenchNumber(reference.effectif)} fiches)</span>`
  }</dd>
</dl>
<p class="json"><a href="${json}">JSON</a> (<code>GET ${json}</code>)</p>`
}

export const recordPage = (meta: Meta, view: RecordView): Html => {
  const e = view.equide
  const descendants = e.nombre_de_descendants
  return layout(meta, {
    title: nameOf(e.nom),
    json: `/v1/equides/${e.id}`,
    body: html`<h1>${nameOf(e.nom)}</h1>
<p><a href="${pedigreePath(e.id)}">Pedigree</a> · <a href="${progenyPath(e.id)}">Descendance (${frenchNumber(descendants)} produit${descendants > 1 ? "s" : ""})</a>${
      // A mare's stallions, ranked by the foal's F.
      e.sexe === "Femelle" ? html` · <a href="${matingsPath([["mere", e.id]])}">Choisir un étalon</a>` : ""
    }</p>
<h2>Identité</h2>
<dl class="fields">
<dt>Nom</dt><dd>${orAbsent(e.nom)}</dd>
<dt>Race</dt><dd>${orAbsent(e.race)}</dd>
<dt>Sexe</dt><dd>${e.sexe}</dd>
<dt>Année de naissance</dt><dd>${orAbsent(e.annee_naissance)}</dd>
<dt>Robe</dt><dd>${orAbsent(e.robe)}</dd>
<dt>Produits connus</dt><dd>${frenchNumber(descendants)}</dd>
<dt>Identifiant</dt><dd><code>${e.id}</code></dd>
<dt>Slug</dt><dd>${orAbsent(e.slug)}</dd>
<dt>Fiche d'origine</dt><dd><a href="${e.url}" rel="external noopener">${e.url}</a></dd>
</dl>
<h2>Filiation</h2>
<dl class="fields">
${parentage("Père", e.pere, view.paternal)}
${parentage("Mère", e.mere, view.maternal)}
<dt>Père de la mère (selon la fiche)</dt><dd>${parentLink(e.pere_de_mere)}</dd>
<dt>Filiation rédigée par la source</dt><dd>${orAbsent(e.filiation_texte)}</dd>
</dl>
${genetics(e.id, view.genetique)}
<h2>Performances</h2>
${performances(e.performances)}
${view.statistiques === undefined ? "" : offspring(e.id, view.statistiques)}`
  })
}
