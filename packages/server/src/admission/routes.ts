/**
 * The served paths, defined once: the router's configuration and every path the service serves
 * (all with GET and HEAD) mapped to its route template, from the `HttpApi` definition and the
 * pages (`pageRoutes.ts`). Admission looks a request's route up here; the router is built with the
 * same settings.
 */
import { Api, BytesEstimate, type BytesEstimator, endpointsOf, ExecutionCost, Exported, Probe } from "@equides/domain"
import { Context } from "effect"
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

export const routeTemplates = (): FindMyWay.Router<string> => {
  const router = FindMyWay.make<string>(ROUTER_CONFIG)
  for (const path of [...endpointsOf(Api).map((endpoint) => endpoint.path), ...PAGE_ROUTES]) router.on("GET", path as HttpRouter.PathInput, path)
  return router
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
