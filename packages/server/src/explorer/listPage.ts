/**
 * The list (`/explorer/equides?…`): the filters of `GET /v1/equides` as a GET form (the URL is the
 * state: shareable, bookmarkable), sort and page size, the page of results with its pagination,
 * and facet counts by race, sex and coat for the current selection (`/v1/stats/repartition`). A
 * facet value adds its filter to the URL; an active one removes it.
 */
import { FILTER_PARAMETERS, foldValue, type Meta, type PageResumes, paginationLinks, type Repartition, SEXES, TRIS } from "@equides/domain"
import { type Html, html } from "./html.ts"
import { frenchNumber, layout } from "./layout.ts"
import { ABSENT, horseLink, pager } from "./links.ts"
import { EXPLORER_LIST, listPath, type Pairs, queryString, valueOf } from "./paths.ts"

export type FacetDimension = "race" | "sexe" | "robe"
export const FACET_DIMENSIONS: ReadonlyArray<FacetDimension> = ["race", "sexe", "robe"]
export const FACET_LABELS: Readonly<Record<FacetDimension, string>> = { race: "Race", sexe: "Sexe", robe: "Robe" }

/** Values offered while typing each free filter (from the reference lists). */
export interface Suggestions {
  readonly race: ReadonlyArray<string>
  readonly robe: ReadonlyArray<string>
  readonly discipline: ReadonlyArray<string>
  readonly indice: ReadonlyArray<string>
  readonly statut_reproducteur: ReadonlyArray<string>
}

export type ListOutcome =
  | { readonly kind: "page"; readonly page: PageResumes; readonly facets: ReadonlyArray<Repartition> }
  | { readonly kind: "refused"; readonly detail: string; readonly indice: string | undefined }

const TRI_LABELS: Readonly<Record<string, string>> = {
  naturel: "Ordre du fichier",
  "-naturel": "Ordre du fichier, inversé",
  nom: "Nom (A → Z)",
  "-nom": "Nom (Z → A)",
  annee: "Année de naissance croissante",
  "-annee": "Année de naissance décroissante"
}

const valuesOf = (pairs: Pairs, name: string): ReadonlyArray<string> => pairs.filter(([k]) => k === name).map(([, v]) => v)

/** The link of a facet value: adds it to the filters, or removes it when active (back to page 1 either way). */
const facetLink = (pairs: Pairs, name: string, value: string, active: boolean): string => {
  const kept = pairs.filter(([k, v]) => k !== "offset" && !(active && k === name && v.toLowerCase() === value.toLowerCase()))
  return listPath(active ? kept : [...kept, [name, value]])
}

const facet = (pairs: Pairs, dimension: FacetDimension, repartition: Repartition): Html => {
  const active = new Set(valuesOf(pairs, dimension).flatMap((v) => v.split(",")).map((v) => v.trim().toLowerCase()))
  return html`<h3 id="facette-${dimension}">${FACET_LABELS[dimension]}</h3>
<ul aria-labelledby="facette-${dimension}">${
    repartition.donnees.map(({ valeur = "", nombre = 0 }) => {
      const on = active.has(valeur.toLowerCase())
      return html`<li><a href="${facetLink(pairs, dimension, valeur, on)}"${on ? html` aria-current="true"` : ""}>${on ? "✓ " : ""}${
        valeur === "" ? "(vide)" : valeur
      }${on ? html`<span class="skip"> (retirer ce filtre)</span>` : ""}</a><span class="num">${frenchNumber(nombre)}</span></li>`
    })
  }</ul>`
}

/** Text fields, one per value given plus an empty one: repeated values (`?race=A&race=B`) survive a submission. */
const repeatedInputs = (pairs: Pairs, name: string, label: string, list: string): Html => {
  const values = [...valuesOf(pairs, name), ""]
  return html`<label for="f-${name}">${label}</label>${
    values.map((value, i) =>
      html`<input type="text" id="${i === 0 ? `f-${name}` : `f-${name}-${i}`}" name="${name}" value="${value}" list="${list}"${
        i === 0 ? "" : html` aria-label="${label} (autre valeur)"`
      }>`
    )
  }`
}

const datalist = (id: string, values: ReadonlyArray<string>): Html =>
  html`<datalist id="${id}">${values.map((v) => html`<option value="${v}"></option>`)}</datalist>`

const form = (pairs: Pairs, suggestions: Suggestions): Html => {
  const sexes = new Set(valuesOf(pairs, "sexe").flatMap((v) => v.split(",")).map(foldValue))
  const tri = valueOf(pairs, "tri") || "naturel"
  const limite = valueOf(pairs, "limite") || "20"
  const perf = valueOf(pairs, "avec_performances").toLowerCase()
  const option = (value: string, label: string, selected: boolean): Html =>
    html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`
  return html`<form class="filters" method="get" action="${EXPLORER_LIST}">
<fieldset><legend>Nom</legend>
<label for="f-nom">Début des mots du nom</label><input type="text" id="f-nom" name="nom" value="${valueOf(pairs, "nom")}">
</fieldset>
<fieldset><legend>Identité</legend>
${repeatedInputs(pairs, "race", "Race", "l-race")}
<fieldset class="choices"><legend>Sexe</legend>${
    SEXES.map((s) => html`<label><input type="checkbox" name="sexe" value="${s}"${sexes.has(foldValue(s)) ? html` checked` : ""}> ${s}</label>`)
  }</fieldset>
${repeatedInputs(pairs, "robe", "Robe", "l-robe")}
${repeatedInputs(pairs, "statut_reproducteur", "Statut de reproducteur", "l-statut")}
</fieldset>
<fieldset><legend>Naissance</legend>
<label for="f-annee_min">Née au plus tôt en</label><input type="number" id="f-annee_min" name="annee_min" value="${valueOf(pairs, "annee_min")}">
<label for="f-annee_max">Née au plus tard en</label><input type="number" id="f-annee_max" name="annee_max" value="${valueOf(pairs, "annee_max")}">
<label for="f-annee_naissance">Années exactes (séparées par des virgules)</label><input type="text" id="f-annee_naissance" name="annee_naissance" value="${
    valuesOf(pairs, "annee_naissance").join(",")
  }">
</fieldset>
<fieldset><legend>Performances</legend>
<label for="f-avec_performances">Indices publiés</label>
<select id="f-avec_performances" name="avec_performances">
${option("", "indifférent", perf === "")}${option("oui", "au moins un", ["oui", "true", "1"].includes(perf))}${
    option("non", "aucun", ["non", "false", "0"].includes(perf))
  }
</select>
${repeatedInputs(pairs, "discipline", "Discipline", "l-discipline")}
${repeatedInputs(pairs, "indice", "Code d'indice", "l-indice")}
</fieldset>
<fieldset><legend>Présentation</legend>
<label for="f-tri">Ordre</label>
<select id="f-tri" name="tri">${TRIS.map((t) => option(t, TRI_LABELS[t] ?? t, t === tri))}</select>
<label for="f-limite">Par page</label>
<select id="f-limite" name="limite">${["20", "50", "100"].map((n) => option(n, n, n === limite))}</select>
</fieldset>
<button type="submit">Filtrer</button> <a href="${EXPLORER_LIST}">Effacer les filtres</a>
${datalist("l-race", suggestions.race)}${datalist("l-robe", suggestions.robe)}${datalist("l-statut", suggestions.statut_reproducteur)}${
    datalist("l-discipline", suggestions.discipline)
  }${datalist("l-indice", suggestions.indice)}
</form>`
}

const FILTER_NAMES: ReadonlySet<string> = new Set(FILTER_PARAMETERS)

/** The whole selection as a file: the export of the page's filters (its order and paging dropped: an export is in file order). */
const downloads = (pairs: Pairs): Html => {
  const filters = pairs.filter(([name]) => FILTER_NAMES.has(name))
  const exportOf = (format: string) => `/v1/export/equides${queryString([["format", format], ...filters])}`
  return html`<p class="downloads">Toute la sélection, dans l'ordre du fichier : <a href="${exportOf("csv")}" download>Télécharger (CSV)</a> <a href="${
    exportOf("ndjson")
  }" download>(NDJSON)</a></p>`
}

const results = (pairs: Pairs, page: PageResumes): Html => {
  const { total, limite, offset } = page.pagination
  const links = paginationLinks(EXPLORER_LIST, pairs, offset, limite, total)
  const first = Math.min(total, offset + 1)
  const last = Math.min(total, offset + page.donnees.length)
  const nav = pager("Pages de résultats", links, total === 0 ? "" : `${frenchNumber(first)} à ${frenchNumber(last)} sur ${frenchNumber(total)}`)
  return html`<p role="status"><strong>${frenchNumber(total)}</strong> équidé${total > 1 ? "s" : ""} ${total > 1 ? "correspondent" : "correspond"} aux filtres.</p>
${total === 0 ? "" : downloads(pairs)}
${links.note === undefined ? "" : html`<p class="note">${links.note}</p>`}
${total === 0 ? "" : html`${nav}<div class="table-wrap"><table>
<caption class="skip">Résultats</caption>
<thead><tr><th scope="col">Nom</th><th scope="col">Race</th><th scope="col">Sexe</th><th scope="col" class="num">Année</th><th scope="col">Robe</th></tr></thead>
<tbody>
${page.donnees.map((r) =>
    html`<tr><td>${horseLink(r.id, r.nom)}</td><td>${r.race === "" ? ABSENT : r.race}</td><td>${r.sexe}</td><td class="num">${
      r.annee_naissance ?? ABSENT
    }</td><td>${r.robe ?? ABSENT}</td></tr>`
  )}
</tbody>
</table></div>${nav}`}`
}

/** `pairs`: the page's own query, empty values dropped (the API request is `/v1/equides` with the same). */
export const listPage = (meta: Meta, pairs: Pairs, outcome: ListOutcome, suggestions: Suggestions): Html =>
  layout(meta, {
    title: "Liste des équidés",
    json: `/v1/equides${queryString(pairs)}`,
    body: html`<h1>Liste des équidés</h1>
<div class="list-layout">
<div>${form(pairs, suggestions)}</div>
<div>
${
      outcome.kind === "refused"
        ? html`<div class="note" role="alert"><p><strong>Filtre refusé.</strong> ${outcome.detail}</p>${
          outcome.indice === undefined ? "" : html`<p>${outcome.indice}</p>`
        }</div>`
        : html`<div class="results-layout"><div>${results(pairs, outcome.page)}</div>
<section class="facets" aria-label="Comptages de la sélection">
<h2>Dans cette sélection</h2>
${outcome.facets.map((r) => facet(pairs, r.dimension as FacetDimension, r))}
</section></div>`
    }
</div>
</div>`
  })
