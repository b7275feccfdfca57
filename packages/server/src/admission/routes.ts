/**
 * The served paths, defined once: the router's configuration and every path the service serves
 * (all with GET and HEAD) mapped to its route template, from the `HttpApi` definition and the
 * pages (`pageRoutes.ts`). Admission looks a request's route up here; the router is built with the
 * same settings.
 */
import { Api, BytesEstimate, type BytesEstimator, endpointsOf, ExecutionCost, Exported, Probe } from "@equides/domain"
import * as Context from "effect/Context"
import { FindMyWay, type HttpRouter } from "effect/http"
import { EXPLORER_EXECUTION_MS, PAGE_ROUTES } from "../pageRoutes.ts"

/**
 * Paths are case-sensitive (the router's default is not): ids are, and one resource has one URI,
 * which caches and ETags rely on.
 */
export const ROUTER_CONFIG: Partial<FindMyWay.RouterConfig> = { caseSensitive: true }

/**
 * Routes whose body is never content-coded (`Exported` "parquet" on their definition: the file is
 * compressed inside): one representation whatever `Accept-Encoding`, so one ETag (a cache or a
 * resumed download with `If-Range` must not see the same bytes as two).
 */
export const UNCODED_ROUTES: ReadonlySet<string> = new Set(endpointsOf(Api).filter((endpoint) => Context.get(endpoint.annotations, Exported) === "parquet").map((endpoint) => endpoint.path))

/** The probes (`Probe` on their definitions): run outside the concurrency gate, they must stay responsive under load. */
export const PROBES: ReadonlySet<string> = new Set(endpointsOf(Api).filter((endpoint) => Context.get(endpoint.annotations, Probe)).map((endpoint) => endpoint.path))

/** Every served path's template: the API's, then the pages'. */
const SERVED: ReadonlyArray<string> = [...endpointsOf(Api).map((endpoint) => endpoint.path), ...PAGE_ROUTES]

export const routeTemplates = (): FindMyWay.Router<string> => {
  const router = FindMyWay.make<string>(ROUTER_CONFIG)
  for (const path of SERVED) router.on("GET", path as HttpRouter.PathInput, path)
  return router
}

/** The router's longest parameter (FindMyWay's default `maxParamLength`): a longer one is its to refuse. */
const MAX_PARAM_LENGTH = 100

/**
 * Whether the router takes `path` as it is: from `/`, no percent-escape (nothing to decode), none
 * of the characters it ends a path at (`?`, `;`, `#`), no empty segment, no trailing slash.
 * Upper case is taken as it is too: the router is case-sensitive (`ROUTER_CONFIG`).
 */
const isPlainPath = (path: string): boolean => {
  if (path.charCodeAt(0) !== 0x2f || (path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f)) return false
  for (let i = 1; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c === 0x25 || c === 0x3f || c === 0x3b || c === 0x23 || (c === 0x2f && path.charCodeAt(i - 1) === 0x2f)) return false
  }
  return true
}

/**
 * The template serving a GET of `path`, as `router.find(…)?.handler` answers (`routes.test.ts` holds
 * it to the router), without the match the router builds for it (the parameters' object, the
 * parsed query, the path's pieces: about 400 bytes a request on the server's thread, where
 * admission runs for every request) for the paths admission meets most: a static path, or a
 * static prefix then one last segment (`/v1/equides/{id}`), taken as they are (`isPlainPath`).
 * Any other path, and a template of the prefix shadowed by a static one, is the router's.
 */
export const templateFinder = (router: FindMyWay.Router<string>): (path: string) => string | undefined => {
  const statics: ReadonlySet<string> = new Set(SERVED.filter((path) => !path.includes(":")))
  const lastSegment = /^([^:]*\/):[A-Za-z_]+$/
  const prefixes: Array<string> = []
  const templates: Array<string> = []
  for (const path of SERVED) {
    const prefix = lastSegment.exec(path)?.[1]
    if (prefix === undefined) continue
    prefixes.push(prefix)
    templates.push(path)
  }
  const routed = (path: string): string | undefined => router.find("GET", path)?.handler
  return (path) => {
    if (!isPlainPath(path)) return routed(path)
    if (statics.has(path)) return path
    const last = path.lastIndexOf("/") + 1
    if (last === path.length || path.length - last > MAX_PARAM_LENGTH) return routed(path)
    for (let i = 0; i < prefixes.length; i++) {
      if (prefixes[i].length === last && path.startsWith(prefixes[i])) return templates[i]
    }
    return routed(path)
  }
}

/**
 * The execution cost of every route that declares one (ms of CPU at full scale, issue 24 item 5):
 * the API's from their definitions (`executionCost`), the pages' from `EXPLORER_EXECUTION_MS`.
 * One table, read by the quota (`admission/quota.ts` `unitsOf`).
 */
export const executionCosts = (): ReadonlyMap<string, number> => {
  const costs = new Map<string, number>(Object.entries(EXPLORER_EXECUTION_MS))
  for (const endpoint of endpointsOf(Api)) {
    const ms = Context.get(endpoint.annotations, ExecutionCost)
    if (ms > 0) costs.set(endpoint.path, ms)
  }
  return costs
}

/**
 * The bytes estimate of every route that declares one (`bytesEstimate` on its definition), by
 * route template: one table, read by the quota (`admission/quota.ts` `costOf`).
 */
export const bytesEstimates = (): ReadonlyMap<string, BytesEstimator> => {
  const estimates = new Map<string, BytesEstimator>()
  for (const endpoint of endpointsOf(Api)) {
    const estimate = Context.get(endpoint.annotations, BytesEstimate)
    if (estimate !== undefined) estimates.set(endpoint.path, estimate)
  }
  return estimates
}
