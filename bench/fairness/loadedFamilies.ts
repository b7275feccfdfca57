/**
 * The loaded caller's families (issue 24 item 5, "the most expensive requests"), derived from the
 * execution costs the routes declare, as the quota reads them (`admission/routes.ts`
 * `executionCosts`: the API's from their definitions, `executionCost`; the explorer pages' from
 * `EXPLORER_EXECUTION_MS`): every varied family whose route is heavy (declares at least `HEAVY_EXECUTION_MS`, the query
 * pool's threshold for the routes that may not take its last worker), and
 * every family whose requests are a whole-pedigree computation its route's bench plan holds to the
 * `deep` targets (consanguinity at 12 generations: 0.5 ms declared, its depth priced by the bytes
 * rule, 7–9 ms of CPU at full scale). A family's route is its paths' template, as admission finds
 * it. A route that becomes costlier, or a new costly route with its family (`routeFamilies.ts`
 * draws one for every route on the workers), joins the loaded caller with no edit here.
 */
import { Api, Bench, type BenchRequest, endpointsOf } from "@equides/domain"
import * as Context from "effect/Context"
import type { FindMyWay } from "effect/http"
import { executionCosts, routeTemplates } from "../../packages/server/src/admission/routes.ts"
import { HEAVY_EXECUTION_MS } from "../../packages/server/src/execution/requester.ts"
import type { Family } from "../diverse/corpora.ts"

/** The template `path` is served under, if any. */
const templateOf = (templates: FindMyWay.Router<string>, path: string): string | undefined => {
  const q = path.indexOf("?")
  return templates.find("GET", q < 0 ? path : path.slice(0, q))?.handler
}

/** Whether `path` is a URI of `request`: each of its query values given (any value for a `{name}`). */
const isRequest = (path: string, request: BenchRequest): boolean => {
  const q = path.indexOf("?")
  const params = new URLSearchParams(q < 0 ? "" : path.slice(q + 1))
  return Object.entries(request.query ?? {}).every(([name, value]) => /^\{.+\}$/.test(value) ? params.has(name) : params.get(name) === value)
}

/** The deep requests of each route's bench plan, by template. */
const deepRequests = (): ReadonlyMap<string, ReadonlyArray<BenchRequest>> =>
  new Map(endpointsOf(Api).map((endpoint) => [endpoint.path, (Context.get(endpoint.annotations, Bench).requests ?? []).filter((r) => r.kind === "deep")]))

/**
 * The families of `families` whose route declares an execution cost of at least `minMs`, or whose
 * first path is a deep request of its route's bench plan.
 */
export const loadedFamilies = (
  families: ReadonlyArray<Family>,
  costs: ReadonlyMap<string, number> = executionCosts(),
  minMs: number = HEAVY_EXECUTION_MS
): Array<Family> => {
  const templates = routeTemplates()
  const deep = deepRequests()
  return families.filter((family) => {
    const path = family.paths[0]
    const template = path === undefined ? undefined : templateOf(templates, path)
    if (path === undefined || template === undefined) return false
    return (costs.get(template) ?? 0) >= minMs || (deep.get(template) ?? []).some((request) => isRequest(path, request))
  })
}
