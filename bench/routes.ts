/**
 * The routes the bench measures, derived from the `HttpApi` value (`endpointsOf(Api)`): every route
 * its definition does not exclude (`benchExcluded`), at the URIs its plan names (`benchPlan`, its
 * plain URI by default), each held to the targets of design 5 its plan gives. A URI's values are
 * the served description's examples of the route's parameters (drawn from the loaded data by the
 * server), and the records the bench picks through the API itself (so any data file works): a
 * recent record with a deep pedigree, a prolific sire.
 */
import { Api, Bench, type BenchKind, Discovery, endpointsOf, servedPath } from "@equides/domain"
import * as Context from "effect/Context"
import type { HttpApiEndpoint } from "effect/http-api"

/**
 * - `ordinary`: median ≤ 2 ms, p99 ≤ 10 ms, throughput ≥ 50 % of the bare baseline;
 * - `revalidation` (a 304 answer): the same with ≥ 70 %;
 * - `breakdown` (over the whole set): p99 ≤ 20 ms, no median or throughput target;
 * - `deep` (consanguinity at 12 generations, issue 15): p99 ≤ 50 ms, no median or throughput target.
 */
export type RouteKind = BenchKind | "revalidation"

export interface Targets {
  readonly p50?: number
  readonly p99: number
  readonly ratio?: number
}

export const TARGETS: Readonly<Record<RouteKind, Targets>> = {
  ordinary: { p50: 2, p99: 10, ratio: 0.5 },
  revalidation: { p50: 2, p99: 10, ratio: 0.7 },
  breakdown: { p99: 20 },
  deep: { p99: 50 }
}

export interface Route {
  readonly name: string
  readonly path: string
  /** The route it measures, as served (`/v1/equides/{id}`); none for the revalidation. */
  readonly route?: string
  readonly kind: RouteKind
  readonly headers?: Readonly<Record<string, string>>
  /** Why the route is not measured quite as intended (e.g. the server sent no ETag). */
  readonly note?: string
}

/** What was picked from the data, kept in the results so that runs can be compared. */
export interface Picks {
  readonly records: number
  /** A recent record with a deep pedigree. */
  readonly record: { readonly id: string; readonly nom: string; readonly pedigreeNodes: number }
  readonly sire: { readonly id: string; readonly nom: string; readonly descendants: number }
  readonly race: string
  readonly robe: string
  readonly namePrefix: string
  readonly twoWords: string
}

interface Link {
  readonly id?: string
}
interface Row {
  readonly id: string
  readonly nom: string
  readonly annee_naissance?: number
  readonly pere?: Link
  readonly mere?: Link
}

/** The body size of one answer to `url` (its ETag too), checked before it is measured: a refusal is reported. */
export const probe = async (url: string, headers: Readonly<Record<string, string>> = {}): Promise<number> =>
  (await probeAnswer(url, headers)).bytes

export const probeAnswer = async (url: string, headers: Readonly<Record<string, string>> = {}): Promise<{ bytes: number; etag: string | undefined }> => {
  const response = await fetch(url, { headers })
  const bytes = (await response.arrayBuffer()).byteLength
  if (response.status >= 400) process.stderr.write(`warning: ${url} answered ${response.status}\n`)
  return { bytes, etag: response.headers.get("etag") ?? undefined }
}

export const getJson = async <A>(baseUrl: string, path: string): Promise<A> => {
  const response = await fetch(baseUrl + path)
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as A
}

export const words = (name: string): Array<string> => name.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0)

/** Rows from a few full-record pages spread over the file and over the name order. */
const SAMPLE_PAGES = [
  "/v1/equides?vue=complet&limite=100",
  "/v1/equides?vue=complet&limite=100&offset=9900",
  "/v1/equides?vue=complet&limite=100&tri=nom&offset=5000",
  "/v1/equides?vue=complet&limite=100&tri=-annee&offset=5000"
]

/** `f` over `items`, at most `width` at a time. */
export const inBatches = async <A, B>(items: ReadonlyArray<A>, width: number, f: (item: A) => Promise<B>): Promise<Array<B>> => {
  const results: Array<B> = []
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(f))))
  return results
}

/**
 * The largest sire is found by size-biased sampling: a sampled row's sire is a prolific one more
 * often than not, so the sires of a few hundred rows, looked up, include one of the largest.
 * The pedigree subject is the recent sampled record with the most known ancestors.
 */
export const pickValues = async (baseUrl: string): Promise<Picks> => {
  const { lignes } = await getJson<{ lignes: number }>(baseUrl, "/readyz")
  const topValue = async (dimension: string) =>
    (await getJson<{ donnees: Array<{ valeur: string }> }>(baseUrl, `/v1/referentiels/${dimension}`)).donnees[0]?.valeur ?? ""
  const rows = (await Promise.all(SAMPLE_PAGES.map((path) => getJson<{ donnees: Array<Row> }>(baseUrl, path)))).flatMap((page) => page.donnees)

  const sireIds = [...new Set(rows.flatMap((row) => row.pere?.id ?? []))]
  const sires = await inBatches(sireIds, 16, (id) => getJson<{ id: string; nom: string; nombre_de_descendants: number }>(baseUrl, `/v1/equides/${id}`))
  const sire = sires.sort((a, b) => b.nombre_de_descendants - a.nombre_de_descendants)[0]
  if (sire === undefined) throw new Error("no sampled record has a sire in the data: cannot pick routes")

  const thisYear = new Date().getFullYear()
  const recent = rows
    .filter((row) => row.pere?.id !== undefined && row.mere?.id !== undefined && (row.annee_naissance ?? 0) <= thisYear)
    .sort((a, b) => (b.annee_naissance ?? 0) - (a.annee_naissance ?? 0))
    .slice(0, 10)
  const pedigrees = await Promise.all(
    recent.map(async (row) => ({ row, nodes: (await getJson<{ noeuds: number }>(baseUrl, `/v1/equides/${row.id}/pedigree?generations=8`)).noeuds }))
  )
  const subject = pedigrees.sort((a, b) => b.nodes - a.nodes)[0]
  if (subject === undefined) throw new Error("no sampled record has both parents in the data: cannot pick routes")

  const named = [sire.nom, ...rows.map((row) => row.nom)].map(words)
  const prefixSource = named.flat().find((word) => word.length >= 3) ?? "A"
  const [first, second] = named.find((w) => w.length >= 2 && w[0].length >= 2 && w[1].length >= 3) ?? ["A", "B"]
  return {
    records: lignes,
    record: { id: subject.row.id, nom: subject.row.nom, pedigreeNodes: subject.nodes },
    sire: { id: sire.id, nom: sire.nom, descendants: sire.nombre_de_descendants },
    race: await topValue("races"),
    robe: await topValue("robes"),
    namePrefix: prefixSource.slice(0, 3),
    twoWords: `${first} ${second.slice(0, 3)}`
  }
}

/** The heaviest queries, also measured by the scaling curve. */
export const REPARTITION_RACE: Route = { name: "repartition race", path: "/v1/stats/repartition?dimension=race", kind: "breakdown" }
export const SEARCH_ONE_LETTER: Route = { name: "search, one letter", path: "/v1/search?q=A", kind: "ordinary" }

export const query = (params: Record<string, string>): string => `?${new URLSearchParams(params)}`.replaceAll("+", "%20")

/**
 * The ETag of `path`, for the revalidation route, or undefined when the server sends none. The
 * ETag depends on the negotiated coding, and fetch asks for gzip by itself while autocannon sends
 * no Accept-Encoding: ask for the identity representation, the one autocannon revalidates.
 */
const etagOf = async (baseUrl: string, path: string): Promise<string | undefined> => {
  const response = await fetch(baseUrl + path, { headers: { "accept-encoding": "identity" } })
  await response.body?.cancel()
  return response.headers.get("etag") ?? undefined
}

/** What the served description (`/openapi.json`) says of a route's parameters: the bench reads their examples. */
export interface DescribedParameter {
  readonly name: string
  readonly in: string
  readonly required?: boolean
  readonly example?: unknown
}

export interface Description {
  readonly paths: Readonly<Record<string, { readonly get?: { readonly parameters?: ReadonlyArray<DescribedParameter> } }>>
}

/** The values of a route's URI that are not its parameters' examples. */
export interface Values {
  /** The record an `{id}` stands for, by the route's plan (`subject`). */
  readonly ancestors: string
  readonly offspring: string
  /** Values by name: for a plan's `{name}`, and before the description's example for a required parameter. */
  readonly named: Readonly<Record<string, string>>
}

export interface Derived {
  readonly routes: ReadonlyArray<Route>
  /** The routes left out, with the reason their definition gives. */
  readonly excluded: ReadonlyArray<{ readonly route: string; readonly why: string }>
}

const exampleText = (example: unknown): string | undefined =>
  Array.isArray(example) ? exampleText(example[0]) : typeof example === "string" || typeof example === "number" || typeof example === "boolean" ? String(example) : undefined

/** A value the bench gives a parameter by name (undefined: the description's example). */
export type ValueOf = (name: string) => string | undefined

/**
 * A route's URI: its path parameters and required query parameters given by `valueOf`, else by
 * the description's examples, then `extra` (values or `{name}`: `valueOf(name)`, else the example
 * of the route's query parameter of that name). Throws naming what has no value.
 */
export const uriOf = (
  endpoint: HttpApiEndpoint.Top,
  description: Description,
  valueOf: ValueOf,
  extra: Readonly<Record<string, string>> = {}
): string => {
  const route = servedPath(endpoint.path)
  const parameters = description.paths[route]?.get?.parameters ?? []
  const example = (name: string, where: string): string | undefined =>
    exampleText(parameters.find((parameter) => parameter.name === name && parameter.in === where)?.example)
  const missing = (name: string): never => {
    throw new Error(`${route}: the bench has no value for ${name}; give the parameter an example in the description, or exclude the route (benchExcluded)`)
  }
  const path = route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(valueOf(name) ?? example(name, "path") ?? missing(`{${name}}`)))
  const required = parameters.filter((parameter) => parameter.in === "query" && parameter.required === true)
  const params = Object.fromEntries(required.map(({ name }) => [name, valueOf(name) ?? example(name, "query") ?? missing(name)]))
  for (const [name, value] of Object.entries(extra)) {
    const named = /^\{(.+)\}$/.exec(value)?.[1]
    params[name] = named === undefined ? value : valueOf(named) ?? example(named, "query") ?? missing(value)
  }
  return Object.keys(params).length === 0 ? path : path + query(params)
}

/** The URIs of every route of `endpoints` the bench measures, or the reason it does not. */
export const deriveRoutes = (endpoints: ReadonlyArray<HttpApiEndpoint.Top>, description: Description, values: Values): Derived => {
  const routes: Array<Route> = []
  const excluded: Array<{ route: string; why: string }> = []
  for (const endpoint of endpoints) {
    const route = servedPath(endpoint.path)
    const plan = Context.get(endpoint.annotations, Bench)
    if (plan.excluded !== undefined) {
      excluded.push({ route, why: plan.excluded })
      continue
    }
    const subject = values[plan.subject ?? "ancestors"]
    const valueOf: ValueOf = (name) => (name === "id" ? subject : values.named[name])
    const key = Context.get(endpoint.annotations, Discovery)?.key ?? route
    for (const request of plan.requests ?? [{}]) {
      routes.push({
        name: request.name === undefined ? key : `${key}, ${request.name}`,
        path: uriOf(endpoint, description, valueOf, request.query),
        route,
        kind: request.kind ?? "ordinary"
      })
    }
  }
  return { routes, excluded }
}

/** The values the bench picked, as a derivation reads them. */
export const valuesOf = (picks: Picks): Values => ({
  ancestors: picks.record.id,
  offspring: picks.sire.id,
  named: { race: picks.race, robe: picks.robe, namePrefix: picks.namePrefix, twoWords: picks.twoWords }
})

/** The revalidation of the default list page (a 304: the answer path, not a route), then every route of the `Api` the bench measures. */
export const benchRoutes = async (baseUrl: string, picks: Picks): Promise<Array<Route>> => {
  const etag = await etagOf(baseUrl, "/v1/equides")
  const revalidation: Route = etag === undefined
    ? { name: "304 revalidation", path: "/v1/equides", kind: "revalidation", note: "the server sent no ETag: measured as a plain 200" }
    : { name: "304 revalidation", path: "/v1/equides", kind: "revalidation", headers: { "if-none-match": etag } }
  const { routes, excluded } = deriveRoutes(endpointsOf(Api), await getJson<Description>(baseUrl, "/openapi.json"), valuesOf(picks))
  for (const { route, why } of excluded) process.stderr.write(`not measured: ${route} (${why})\n`)
  return [revalidation, ...routes]
}
