/**
 * The front door's direct lane (issue 9, item 3): the lookups of `lookups.ts` answered in the Node
 * server's `request` event, without a fiber, a request wrapper, the router or the HttpApi
 * middleware, which cost several times the lookup itself. The contract stays the `HttpApi`
 * definition's: the query is decoded with the API's own parameter definitions and the value
 * encoded with the endpoint's own success schema, and the answer is shaped by the one answer
 * path (`admission/answer.ts`, which the front door calls). What the lane does not answer (a parameter refused, an unknown id,
 * a filtered list) goes on to the pipeline, so refusals keep their one path;
 * `answerPaths.test.ts` checks that both paths write the same bytes.
 *
 * The lane bypasses the concurrency gate: a lookup is bounded work, like a kept response.
 */
import { descendanceQuery, listQuery, NoQuery, pedigreeQuery } from "@equides/domain"
import { type DatasetData, idOf as idOfRow } from "@equides/domain"
import { answer, isBounded, queryPairs } from "@equides/domain/answers"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import type { Own } from "../own.ts"
import { JSON_TYPE } from "../responseHeaders.ts"
import { exampleSubject } from "../examples.ts"
import { descendanceBodyOf, pedigreeBodyOf, recordBodyOf } from "./lookups.ts"

type Query = Readonly<Record<string, string | ReadonlyArray<string>>>

/** A query string's parameters as the router hands them to the API: one value, or every value of a repeated name. */
const parseQuery = (url: string): Query => {
  const query: Record<string, string | Array<string>> = {}
  for (const [name, value] of queryPairs(url)) {
    const seen = query[name]
    query[name] = seen === undefined ? value : typeof seen === "string" ? [seen, value] : [...seen, value]
  }
  return query
}

/** As HttpApi decodes a query: a parameter the route does not define is refused, never ignored. */
const STRICT: SchemaAST.ParseOptions = { onExcessProperty: "error" }

/**
 * A request's query decoded by the API's definition of a route's parameters (as HttpApi does):
 * undefined when it refuses. Most lookups carry no query: its decoding (the defaults) is taken once.
 */
export const orRefused = <A>(decode: (input: unknown, options: SchemaAST.ParseOptions) => Exit.Exit<A, unknown>) => {
  const decoded = (query: Query): A | undefined => {
    const exit = decode(query, STRICT)
    return Exit.isSuccess(exit) ? exit.value : undefined
  }
  const none = decoded({})
  return (url: string): A | undefined => url.indexOf("?") < 0 ? none : decoded(parseQuery(url))
}

const jsonOwn = (body: Uint8Array): Own => ({
  status: 200,
  headers: { "content-type": JSON_TYPE, "content-length": String(body.length) },
  body
})

const ID_FROM = "/v1/equides/".length

/**
 * The id of `/v1/equides/{id}…` (its path's fourth segment): admission has already refused a path
 * that is not canonical. Read in place, not by splitting the path: one string per request instead
 * of an array and its four (the lane's lookups are most of the server thread's allocations).
 */
const idOf = (url: string): string => {
  let end = ID_FROM
  while (end < url.length) {
    const c = url.charCodeAt(end)
    if (c === 0x2f /* / */ || c === 0x3f /* ? */) break
    end++
  }
  return url.slice(ID_FROM, end)
}

/** The route templates the lane answers. */
const LANE_ROUTES = ["/v1/equides/:id", "/v1/equides/:id/pedigree", "/v1/equides/:id/descendance", "/v1/equides"] as const

type LaneRoute = typeof LANE_ROUTES[number]

const laneRoutes: ReadonlySet<string> = new Set(LANE_ROUTES)

/** Whether the lane answers requests of `route` (some of them: it leaves refusals to the pipeline). */
export const isLaneRoute = (route: string | undefined): route is LaneRoute => route !== undefined && laneRoutes.has(route)

/**
 * What the lane answers before the server listens: each lookup for the record the API's examples
 * are drawn from (the most offspring: a full progeny page) and for its first product whose both
 * parents have a record (a pedigree with ancestors), so that the code writing a page of products
 * or a pedigree's ancestors has run (row 0 of the file, warmed before, may have neither); the
 * first record when the data has no such subject.
 */
export const laneWarmUp = (data: DatasetData): Array<readonly [LaneRoute, string]> => {
  const subject = exampleSubject(data, () => undefined)
  const rows = subject === undefined ? [0] : [subject.row, ...productWithParents(data, subject.row)]
  return [
    ...rows.flatMap((row) => {
      const id = idOfRow(data, row)
      return [
        ["/v1/equides/:id", `/v1/equides/${id}`],
        ["/v1/equides/:id/pedigree", `/v1/equides/${id}/pedigree?generations=8`],
        ["/v1/equides/:id/descendance", `/v1/equides/${id}/descendance?limite=100`]
      ] as const
    }),
    ["/v1/equides", "/v1/equides?tri=-annee&limite=100"]
  ]
}

/** The first product of `row` whose sire and dam both have a record (none or one row). */
const productWithParents = (data: DatasetData, row: number): Array<number> => {
  const { offsets, rows } = data.progeny
  for (let i = offsets[row]; i < offsets[row + 1]; i++) {
    const child = rows[i]
    if (data.links.pere.row[child] >= 0 && data.links.mere.row[child] >= 0) return [child]
  }
  return []
}

/**
 * Passes over the lane's warm-up lookups. Each takes microseconds, but its byte writers run in V8's
 * interpreter until they have run a few times: after the workers' 2 passes, the first pedigree
 * request took 2.2–3.6 ms against 0.12 warm (its body written a byte at a time); after 10, 0.9–1.0
 * (issue 24 item 6, a fresh server on the 4.45 M extract, `docs/performance.md`). The 8 passes
 * more cost 1–2 ms of the start (the lane made in 24–25 ms with 2, 25–27 with 10).
 */
export const LANE_WARM_UP_PASSES = 10

/** `method`, the request's; `route`, its template; `url`, its path and query as received. */
export type DirectLane = (method: string, route: string | undefined, url: string) => Own | undefined

export const makeDirectLane = (data: DatasetData): DirectLane => {
  if (data.size === 0) return () => undefined
  const decodePedigree = orRefused(Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(Schema.Struct(pedigreeQuery.fields))))
  const decodeDescendance = orRefused(Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(Schema.Struct(descendanceQuery.fields))))
  const decodeList = orRefused(Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(Schema.Struct(listQuery.fields))))
  const decodeNone = orRefused(Schema.decodeUnknownExit(NoQuery))
  const answerers: Readonly<Record<LaneRoute, (url: string) => Own | undefined>> = {
    "/v1/equides/:id": (url) => {
      const query = decodeNone(url)
      const body = query === undefined ? undefined : recordBodyOf(data, idOf(url))
      return body === undefined ? undefined : jsonOwn(body)
    },
    "/v1/equides/:id/pedigree": (url) => {
      const query = decodePedigree(url)
      const body = query === undefined ? undefined : pedigreeBodyOf(data, idOf(url), query)
      return body === undefined ? undefined : jsonOwn(body)
    },
    "/v1/equides/:id/descendance": (url) => {
      const query = decodeDescendance(url)
      const body = query === undefined ? undefined : descendanceBodyOf(data, idOf(url), query)
      return body === undefined ? undefined : jsonOwn(body)
    },
    "/v1/equides": (url) => {
      const query = decodeList(url)
      if (query === undefined) return undefined
      const execution = { endpoint: "list" as const, query, url }
      if (!isBounded(execution)) return undefined
      const body = answer(data, execution)
      return Result.isSuccess(body) ? jsonOwn(body.success) : undefined
    }
  }
  // The lane's first use (issue 24, item 6): each lookup answered now, before the server listens,
  // on what a request meets (`laneWarmUp`), `LANE_WARM_UP_PASSES` times.
  // Drawn once: its subject is a pass over every record (`exampleSubject`).
  const warmUps = laneWarmUp(data)
  for (let pass = 0; pass < LANE_WARM_UP_PASSES; pass++) {
    for (const [route, url] of warmUps) answerers[route](url)
  }
  // Another method on a served path is the router's 405.
  return (method, route, url) =>
    (method === "GET" || method === "HEAD") && isLaneRoute(route) ? answerers[route](url) : undefined
}
