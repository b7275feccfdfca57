/**
 * The explorer's pages that read the data (a list with its facets, the statistics, a record, a
 * pedigree, a progeny, parents ranked by their offspring, a breed's genetics, stallions ranked for a mare, a test
 * mating), made from the request alone: its query decoded with the API's own
 * parameters, the data read with the API's own query functions, the page rendered, as bytes with
 * their status (an error page says why, 400 or 404). A `PageExecution` is plain data: the
 * `Executor` renders it on a query worker when there are (`execution/work.ts`), so that no page
 * holds the server's thread; the same function renders it in the server's thread with `WORKERS=0`.
 */
import {
  accouplement,
  accouplementQuery,
  breedReference,
  type DatasetData,
  descendanceQuery,
  etalonsAnswer,
  etalonsQuery,
  equideNotFound,
  findEquide,
  foalCoefficient,
  genetiqueQuery,
  foldValue,
  type Introuvable,
  listQuery,
  listWithBreakdowns,
  type Meta,
  meta,
  NoQuery,
  notAMare,
  parentNotFound,
  type PageResumes,
  type ParametreInvalide,
  pedigree,
  pedigreeQuery,
  referential,
  type Repartition,
  repartitionAnswer,
  type RepartitionQuery,
  sexeOf,
  reproducteursAnswer,
  reproducteursQuery,
  sameParent,
  statistiquesDescendance,
  stats,
  statsGenetique
} from "@equides/domain"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { errorPage } from "./errorPage.ts"
import { type GenetiqueOutcome, genetiquePage } from "./genetiquePage.ts"
import { etalonsPage, type MatingsOutcome } from "./etalonsPage.ts"
import { matingPage } from "./matingPage.ts"
import type { Html } from "./html.ts"
import { FACET_DIMENSIONS, listPage, type ListOutcome, type Suggestions } from "./listPage.ts"
import { type Pairs, queryString } from "./paths.ts"
import { pedigreePage } from "./pedigreePage.ts"
import { progenyPage } from "./progenyPage.ts"
import { decodeQuery, filledPairs } from "./query.ts"
import { recordPage } from "./recordPage.ts"
import { reproducteursPage, type SiresOutcome } from "./reproducteursPage.ts"
import { type Breakdown, statsPage } from "./statsPage.ts"
import { parentLinks, progenyView, recordView } from "./views.ts"

/** A page to render: `url`, the request's path and query as received; `id`, the `{id}` of a record's pages. */
export type PageExecution =
  | { readonly page: "list" | "stats" | "reproducteurs" | "genetique" | "accouplements" | "accouplement"; readonly url: string }
  | { readonly page: "record" | "pedigree" | "progeny"; readonly url: string; readonly id: string }

/** A rendered page: its status (200, or the 400 or 404 of an error page) and its UTF-8 bytes. */
export interface Rendered {
  readonly status: number
  readonly body: Uint8Array
}

/** Facet and chart sizes: the most numerous values only. */
const FACET_LIMITE = 10
const DATALIST_LIMITE = 100

/** The list's parameters on a page: those of `/v1/equides` but `vue` (a page shows summaries). */
const { vue: _vue, ...listFields } = listQuery.fields
const LIST_SCHEMA = Schema.Struct(listFields)
const LIST_DOCS = listQuery.docs.filter((doc) => doc.name !== "vue")
const PEDIGREE_SCHEMA = Schema.Struct(pedigreeQuery.fields)
const PROGENY_SCHEMA = Schema.Struct(descendanceQuery.fields)
const SIRES_SCHEMA = Schema.Struct(reproducteursQuery.fields)
const GENETICS_SCHEMA = Schema.Struct(genetiqueQuery.fields)
const MATINGS_SCHEMA = Schema.Struct(etalonsQuery.fields)
const MATING_SCHEMA = Schema.Struct(accouplementQuery.fields)

const BREAKDOWNS: ReadonlyArray<readonly [string, RepartitionQuery]> = [
  ["Par race (les 15 plus nombreuses)", { dimension: "race", limite: 15 }],
  ["Par robe (les 15 plus nombreuses)", { dimension: "robe", limite: 15 }],
  ["Par discipline des performances", { dimension: "discipline", limite: 50 }],
  ["Par statut de reproducteur", { dimension: "statut_reproducteur", limite: 15 }],
  ["Par année de naissance", { dimension: "annee_naissance" }]
]

const utf8 = new TextEncoder()

/** Values offered while typing each free filter (from the reference lists), once per Dataset. */
const suggestionsOf = (() => {
  const known = new WeakMap<DatasetData, Suggestions>()
  return (data: DatasetData): Suggestions => {
    const cached = known.get(data)
    if (cached !== undefined) return cached
    const values = (dimension: string): ReadonlyArray<string> => {
      const result = referential(data, dimension)
      return Result.isSuccess(result) ? result.success.donnees.slice(0, DATALIST_LIMITE).map((m) => m.valeur) : []
    }
    const suggestions: Suggestions = {
      race: values("races"),
      robe: values("robes"),
      discipline: values("disciplines"),
      indice: values("codes_indice"),
      statut_reproducteur: values("statuts_reproducteur")
    }
    known.set(data, suggestions)
    return suggestions
  }
})()

const rendered = (page: Html, status = 200): Rendered => ({ status, body: utf8.encode(page.markup) })

const refused = (about: Meta, problem: ParametreInvalide | Introuvable, json: string): Rendered =>
  rendered(errorPage(about, problem, json), problem.status)

/** The value of a query step that cannot refuse here (its parameters are this code's constants). */
const certain = <A>(result: Result.Result<A, { readonly detail: string }>): A => {
  if (Result.isFailure(result)) throw new Error(result.failure.detail)
  return result.success
}

const FACETS = FACET_DIMENSIONS.map((dimension) => ({ dimension, limite: FACET_LIMITE }))

/** The page of `/v1/equides` with the same query and its facets, one selection for all. */
const listOutcome = (data: DatasetData, pairs: Pairs, json: string): ListOutcome => {
  const decoded = decodeQuery(LIST_SCHEMA, LIST_DOCS, pairs)
  if (Result.isFailure(decoded)) return { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }
  const answered = listWithBreakdowns(data, decoded.success, json, FACETS)
  return Result.isSuccess(answered)
    ? { kind: "page", page: answered.success.page as PageResumes, facets: answered.success.breakdowns }
    : { kind: "refused", detail: answered.failure.detail, indice: answered.failure.indice }
}

/** The ranking of `/v1/stats/reproducteurs` with the same query; without a `code`, the form alone. */
const siresOutcome = (data: DatasetData, pairs: Pairs, json: string): SiresOutcome => {
  if (pairs.every(([name]) => name !== "code")) return { kind: "form" }
  const decoded = decodeQuery(SIRES_SCHEMA, reproducteursQuery.docs, pairs)
  if (Result.isFailure(decoded)) return { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }
  const ranking = reproducteursAnswer(data, decoded.success, json)
  return Result.isSuccess(ranking)
    ? { kind: "ranking", ranking: ranking.success }
    : { kind: "refused", detail: ranking.failure.detail, indice: ranking.failure.indice }
}

/** A breed's figures as `/v1/stats/genetique` gives them for the same query; without a `race`, the form alone. */
const geneticsOutcome = (data: DatasetData, pairs: Pairs): GenetiqueOutcome => {
  if (pairs.every(([name]) => name !== "race")) return { kind: "form" }
  const decoded = decodeQuery(GENETICS_SCHEMA, genetiqueQuery.docs, pairs)
  if (Result.isFailure(decoded)) return { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }
  const figures = statsGenetique(data, decoded.success)
  return Result.isSuccess(figures)
    ? { kind: "figures", stats: figures.success }
    : { kind: "refused", detail: figures.failure.detail, indice: figures.failure.indice }
}

/** The ranking of `/v1/accouplements/etalons` with the same query, and its status; without a `mere`, the form alone. */
const matingsOutcome = (data: DatasetData, pairs: Pairs, json: string): { readonly outcome: MatingsOutcome; readonly status: number } => {
  if (pairs.every(([name]) => name !== "mere")) return { outcome: { kind: "form" }, status: 200 }
  const decoded = decodeQuery(MATINGS_SCHEMA, etalonsQuery.docs, pairs)
  if (Result.isFailure(decoded)) return { outcome: { kind: "refused", detail: decoded.failure.detail, indice: decoded.failure.indice }, status: 400 }
  // The route's own checks and refusals (handlers/consanguinite.ts): an unknown mare is a 404, a record that is not a Femelle a 400.
  const mere = findEquide(data, decoded.success.mere)
  if (mere === undefined) return { outcome: { kind: "refused", detail: parentNotFound(["mere"]).detail, indice: undefined }, status: 404 }
  const sexe = sexeOf(data, mere)
  if (foldValue(sexe) !== foldValue("Femelle")) {
    const { detail, indice } = notAMare(sexe)
    return { outcome: { kind: "refused", detail, indice }, status: 400 }
  }
  const ranking = etalonsAnswer(data, mere, decoded.success, json)
  return Result.isSuccess(ranking)
    ? { outcome: { kind: "ranking", ranking: ranking.success, reference: breedReference(data, mere) }, status: 200 }
    : { outcome: { kind: "refused", detail: ranking.failure.detail, indice: ranking.failure.indice }, status: 400 }
}

/** A test mating's page: the checks of `/v1/accouplements` (an unknown parent 404, the same horse twice 400), then its answer. */
const matingRendered = (data: DatasetData, about: Meta, pairs: Pairs): Rendered => {
  const json = `/v1/accouplements${queryString(pairs)}`
  const decoded = decodeQuery(MATING_SCHEMA, accouplementQuery.docs, pairs)
  if (Result.isFailure(decoded)) return refused(about, decoded.failure, json)
  const { generations } = decoded.success
  const pere = findEquide(data, decoded.success.pere)
  const mere = findEquide(data, decoded.success.mere)
  if (pere === undefined || mere === undefined) {
    return refused(about, parentNotFound(pere === undefined ? (mere === undefined ? ["pere", "mere"] : ["pere"]) : ["mere"]), json)
  }
  if (pere === mere) return refused(about, sameParent, json)
  return rendered(matingPage(about, pairs, {
    accouplement: accouplement(data, pere, mere, generations),
    complet: foalCoefficient(data, pere, mere),
    reference: breedReference(data, mere)
  }))
}

/** The page `execution` asks for, rendered. */
export const renderPage = (data: DatasetData, execution: PageExecution): Rendered => {
  const about = meta(data)
  const pairs = filledPairs(execution.url)
  switch (execution.page) {
    case "list": {
      const outcome = listOutcome(data, pairs, `/v1/equides${queryString(pairs)}`)
      return rendered(listPage(about, pairs, outcome, suggestionsOf(data)), outcome.kind === "refused" ? 400 : 200)
    }
    case "stats": {
      const decoded = decodeQuery(NoQuery, [], pairs)
      if (Result.isFailure(decoded)) return refused(about, decoded.failure, "/v1/stats")
      const breakdowns = BREAKDOWNS.map(([title, query]): Breakdown => ({
        title,
        json: `/v1/stats/repartition${queryString(Object.entries(query).map(([k, v]) => [k, String(v)] as const))}`,
        repartition: certain(repartitionAnswer(data, query)) satisfies Repartition
      }))
      return rendered(statsPage(about, stats(data), breakdowns))
    }
    case "record": {
      const { id } = execution
      const row = findEquide(data, id)
      if (row === undefined) return refused(about, equideNotFound, `/v1/equides/${id}`)
      const decoded = decodeQuery(NoQuery, [], pairs)
      if (Result.isFailure(decoded)) return refused(about, decoded.failure, `/v1/equides/${id}`)
      const view = recordView(data, row)
      // A parent's offspring statistics, as `/v1/equides/{id}/descendance/statistiques` gives them.
      const statistiques = view.equide.nombre_de_descendants === 0 ? undefined : statistiquesDescendance(data, row)
      return rendered(recordPage(about, { ...view, statistiques }))
    }
    case "reproducteurs": {
      const json = `/v1/stats/reproducteurs${queryString(pairs)}`
      const outcome = siresOutcome(data, pairs, json)
      return rendered(reproducteursPage(about, pairs, outcome, suggestionsOf(data).indice), outcome.kind === "refused" ? 400 : 200)
    }
    case "genetique": {
      const outcome = geneticsOutcome(data, pairs)
      return rendered(genetiquePage(about, pairs, outcome, suggestionsOf(data).race), outcome.kind === "refused" ? 400 : 200)
    }
    case "accouplements": {
      const { outcome, status } = matingsOutcome(data, pairs, `/v1/accouplements/etalons${queryString(pairs)}`)
      return rendered(etalonsPage(about, pairs, outcome), status)
    }
    case "accouplement":
      return matingRendered(data, about, pairs)
    case "pedigree": {
      const { id } = execution
      const row = findEquide(data, id)
      if (row === undefined) return refused(about, equideNotFound, `/v1/equides/${id}/pedigree`)
      const decoded = decodeQuery(PEDIGREE_SCHEMA, pedigreeQuery.docs, pairs)
      return Result.isSuccess(decoded)
        ? rendered(pedigreePage(about, pedigree(data, row, decoded.success.generations), parentLinks(data)))
        : refused(about, decoded.failure, `/v1/equides/${id}/pedigree${queryString(pairs)}`)
    }
    case "progeny": {
      const { id } = execution
      const row = findEquide(data, id)
      if (row === undefined) return refused(about, equideNotFound, `/v1/equides/${id}/descendance`)
      const decoded = decodeQuery(PROGENY_SCHEMA, descendanceQuery.docs, pairs)
      return Result.isSuccess(decoded)
        ? rendered(progenyPage(about, progenyView(data, row, decoded.success.limite, decoded.success.offset), pairs))
        : refused(about, decoded.failure, `/v1/equides/${id}/descendance${queryString(pairs)}`)
    }
  }
}
