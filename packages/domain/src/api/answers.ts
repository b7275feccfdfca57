/**
 * What the endpoints whose cost grows with the data or the depth answer (the list, suggestions, a
 * breakdown, the global counts, a consanguinity, a mating), as pure functions from a decoded query
 * to the JSON body's bytes. The server runs them in its own thread or in a query worker
 * (`WORKERS`); either way this one function makes the body, so both give the same bytes. An
 * `Execution` is plain data: it crosses to a worker by structured clone. A new endpoint of that
 * kind is one member of `Execution` and one case of `answer`; its definition declares its
 * execution cost (`executionCost`), and each worker runs its example's execution once before ready.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { QueryResult } from "../query/errors.ts"
import { resolveCodes, resolveFilters } from "../query/filters.ts"
import { FILTER_PARAMETERS } from "../vocabulary.ts"
import { DEFAULT_LIMITE, DEFAULT_TRI, listPage, paginationLinks } from "../query/paginate.ts"
import { equide, identityOf, resume } from "../query/record.ts"
import { DEFAULT_REPARTITION_DIMENSION, repartition } from "../query/repartition.ts"
import { statistiquesDescendance } from "../query/progenyStats.ts"
import { reproducteurs } from "../query/reproducteurs.ts"
import { select } from "../query/select.ts"
import type { Selection } from "../query/selection.ts"
import { jsonEncoder } from "./json.ts"
import { genetiqueBody, type GenetiqueRequest } from "./genetiqueBody.ts"
import { resumePageBody } from "./resumePageBody.ts"
import { checkQ, clampSuggestLimite, suggest } from "../query/suggest.ts"
import { accouplement, consanguinite } from "../query/consanguinite/consanguinite.ts"
import { stats } from "../query/stats.ts"
import { Accouplement, Consanguinite } from "../schemas/consanguinite.ts"
import { Etalons } from "../schemas/etalons.ts"
import { etalons } from "../query/etalons.ts"

export { jsonEncoder, jsonTextEncoder } from "./json.ts"
export { descendanceBody } from "./descendanceBody.ts"
export { pedigreeBody } from "./pedigreeBody.ts"

/** What queries build on first use (years per code, referentials, the large breeds), built now: call it before serving. */
export { prepareQueries } from "../query/prepareQueries.ts"
import { PageEquides, type Pagination, type Suggestion, Suggestions } from "../schemas/lists.ts"
import { Reproducteurs, StatistiquesDescendance } from "../schemas/progeny.ts"
import { Repartition, Stats } from "../schemas/reference.ts"
import type { etalonsQuery, listQuery, repartitionQuery, reproducteursQuery, searchQuery } from "./queries.ts"

export type ListQuery = Schema.Struct<typeof listQuery.fields>["Type"]
export type SearchQuery = Schema.Struct<typeof searchQuery.fields>["Type"]
export type RepartitionQuery = Schema.Struct<typeof repartitionQuery.fields>["Type"]
export type ReproducteursQuery = Schema.Struct<typeof reproducteursQuery.fields>["Type"]
export type EtalonsQuery = Schema.Struct<typeof etalonsQuery.fields>["Type"]

/**
 * One request to an endpoint that scans the data or walks a pedigree, as its handler received it
 * decoded; ids already resolved to rows by the handler (an unknown id is its 404, an O(1) lookup).
 */
export type Execution =
  | { readonly endpoint: "list"; readonly query: ListQuery; readonly url: string }
  | { readonly endpoint: "suggest"; readonly query: SearchQuery }
  | { readonly endpoint: "repartition"; readonly query: RepartitionQuery }
  | { readonly endpoint: "stats" }
  | { readonly endpoint: "consanguinite"; readonly row: number; readonly generations: number | undefined }
  | { readonly endpoint: "accouplement"; readonly pere: number; readonly mere: number; readonly generations: number | undefined }
  | { readonly endpoint: "genetique"; readonly request: GenetiqueRequest }
  /** `row`: the parent, its id already found by the handler (an unknown id is its 404). */
  | { readonly endpoint: "descendanceStatistiques"; readonly row: number }
  | { readonly endpoint: "reproducteurs"; readonly query: ReproducteursQuery; readonly url: string }
  /** `mere`: the mare's row, found and checked a `Femelle` by the handler. */
  | { readonly endpoint: "etalons"; readonly mere: number; readonly query: EtalonsQuery; readonly url: string }

const LIST_PATH = "/v1/equides"

/**
 * An execution whose cost does not grow with the data: a list without any filter, a window of a
 * pre-sorted permutation. A pool of query threads answers it in the calling thread, where it costs
 * less than the hop to a worker.
 */
export const isBounded = (execution: Execution): boolean =>
  execution.endpoint === "list" && FILTER_PARAMETERS.every((name) => execution.query[name] === undefined)

/** The request's query pairs, in request order (pagination links keep them). */
export const queryPairs = (url: string): Array<readonly [string, string]> => {
  const start = url.indexOf("?")
  return start < 0 ? [] : [...new URLSearchParams(url.slice(start + 1))]
}

/** A list query's page of `selection`: its rows (in page order) and pagination. */
const pageRows = (data: DatasetData, query: ListQuery, url: string, selection: Selection): { rows: Uint32Array; pagination: Pagination } => {
  // Bounds and admitted values are the schema's: a decoded query holds only admitted ones.
  const tri = query.tri ?? DEFAULT_TRI
  const limite = query.limite ?? DEFAULT_LIMITE
  const offset = query.offset ?? 0
  const page = listPage(data, selection, tri, offset, limite)
  const links = paginationLinks(LIST_PATH, queryPairs(url), offset, limite, page.total)
  return { rows: page.rows, pagination: { total: page.total, limite, offset, ...links } }
}

/** A list query's rows (in page order) and pagination, or the parameter it refuses. */
const listRows = (data: DatasetData, query: ListQuery, url: string): QueryResult<{ rows: Uint32Array; pagination: Pagination }> =>
  Result.map(resolveFilters(data, query), (filters) => pageRows(data, query, url, select(data, filters)))

const pageOf = (data: DatasetData, query: ListQuery, { pagination, rows }: { rows: Uint32Array; pagination: Pagination }): PageEquides =>
  query.vue === "complet"
    ? { donnees: Array.from(rows, (row) => equide(data, row)), pagination }
    : { donnees: Array.from(rows, (row) => resume(data, row)), pagination }

export const listAnswer = (data: DatasetData, query: ListQuery, url: string): QueryResult<PageEquides> =>
  Result.map(listRows(data, query, url), (rows) => pageOf(data, query, rows))

/**
 * A list page and breakdowns of the same selection (the explorer's list with its facets): what
 * `listAnswer` and `repartitionAnswer` give for the same filters, the filters resolved and the
 * rows selected once instead of once each.
 */
export const listWithBreakdowns = (
  data: DatasetData,
  query: ListQuery,
  url: string,
  breakdowns: ReadonlyArray<{ readonly dimension: string; readonly limite: number }>
): QueryResult<{ readonly page: PageEquides; readonly breakdowns: ReadonlyArray<Repartition> }> =>
  Result.flatMap(resolveFilters(data, query), (filters) => {
    const selection = select(data, filters)
    return Result.map(
      Result.all(breakdowns.map(({ dimension, limite }) => repartition(data, selection, dimension, limite))),
      (counted) => ({ page: pageOf(data, query, pageRows(data, query, url, selection)), breakdowns: counted })
    )
  })

export const suggestAnswer = (data: DatasetData, query: SearchQuery): QueryResult<Suggestions> =>
  Result.flatMap(checkQ(query.q), (q) => {
    const sexes = query.sexe === undefined ? Result.succeed(undefined) : resolveCodes("sexe", query.sexe, data.sexe)
    return Result.map(sexes, (codes) => suggestions(data, q, clampSuggestLimite(query.limite), codes))
  })

const suggestions = (data: DatasetData, q: string, limite: number, sexes: ReadonlyArray<number> | undefined): Suggestions => {
  const resultats = suggest(data, q, limite, undefined, sexes).map(({ row, score }): Suggestion => ({ ...identityOf(data, row), score }))
  return { q, limite, resultats }
}

export const repartitionAnswer = (data: DatasetData, query: RepartitionQuery): QueryResult<Repartition> =>
  Result.flatMap(
    resolveFilters(data, query),
    (filters) => repartition(data, select(data, filters), query.dimension ?? DEFAULT_REPARTITION_DIMENSION, query.limite)
  )

/**
 * Every field named, given or not: the input has one shape whatever parameters a request gives, so
 * the ranking's loop, compiled for the shapes it has met, is not thrown away by a request giving
 * another set (`sexe` after `code` alone: 5–20 ms at full scale while V8 compiles it again).
 */
export const reproducteursAnswer = (data: DatasetData, query: ReproducteursQuery, url: string): QueryResult<Reproducteurs> =>
  reproducteurs(data, {
    code: query.code,
    sexe: query.sexe,
    race: query.race,
    annee_min: query.annee_min,
    annee_max: query.annee_max,
    produits_min: query.produits_min,
    limite: query.limite ?? DEFAULT_LIMITE,
    offset: query.offset ?? 0
  }, queryPairs(url))

const pageJson = jsonEncoder(PageEquides)
const suggestionsJson = jsonEncoder(Suggestions)
const repartitionJson = jsonEncoder(Repartition)
const statsJson = jsonEncoder(Stats)
const consanguiniteJson = jsonEncoder(Consanguinite)
const accouplementJson = jsonEncoder(Accouplement)
const statistiquesJson = jsonEncoder(StatistiquesDescendance)
const reproducteursJson = jsonEncoder(Reproducteurs)
const etalonsJson = jsonEncoder(Etalons)

export const etalonsAnswer = (data: DatasetData, mere: number, query: EtalonsQuery, url: string): QueryResult<Etalons> =>
  etalons(data, mere, { ...query, limite: query.limite ?? DEFAULT_LIMITE, offset: query.offset ?? 0 }, queryPairs(url))

/** The JSON body (UTF-8) an execution answers, or the parameter it refuses. */
export const answer = (data: DatasetData, execution: Execution): QueryResult<Uint8Array> => {
  switch (execution.endpoint) {
    case "list":
      // Summaries, the default view, are written as bytes (`resumePageBody`: the same bytes).
      return execution.query.vue === "complet"
        ? Result.map(listAnswer(data, execution.query, execution.url), pageJson)
        : Result.map(listRows(data, execution.query, execution.url), ({ pagination, rows }) => resumePageBody(data, rows, pagination))
    case "suggest":
      return Result.map(suggestAnswer(data, execution.query), suggestionsJson)
    case "repartition":
      return Result.map(repartitionAnswer(data, execution.query), repartitionJson)
    case "stats":
      return Result.succeed(statsJson(stats(data)))
    case "consanguinite":
      return Result.succeed(consanguiniteJson(consanguinite(data, execution.row, execution.generations)))
    case "accouplement":
      return Result.succeed(accouplementJson(accouplement(data, execution.pere, execution.mere, execution.generations)))
    case "genetique":
      return genetiqueBody(data, execution.request)
    case "descendanceStatistiques":
      return Result.succeed(statistiquesJson(statistiquesDescendance(data, execution.row)))
    case "reproducteurs":
      return Result.map(reproducteursAnswer(data, execution.query, execution.url), reproducteursJson)
    case "etalons":
      return Result.map(etalonsAnswer(data, execution.mere, execution.query, execution.url), etalonsJson)
  }
}
