/**
 * The loaded caller's families (issue 24 item 5, "the most expensive requests"), derived from the
 * execution costs the routes declare, as the quota reads them (`admission/routes.ts`
 * `executionCosts`: the API's from their definitions, `executionCost`; the explorer pages' from
 * `EXPLORER_EXECUTION_MS`): every varied family whose route declares at least `LOADED_MIN_MS`. A
 * family's route is its paths' template, as admission finds it. A route that becomes costlier, or
 * a new costly route with its family (`routeFamilies.ts` draws one for every route on the
 * workers), joins the loaded caller with no edit here.
 */
import type { FindMyWay } from "effect/http"
import { executionCosts, routeTemplates } from "../../packages/server/src/admission/routes.ts"
import type { Family } from "../diverse/corpora.ts"

/**
 * Milliseconds of CPU at full scale (8 quota units of 0.5 ms): a breakdown over the whole set
 * (4 ms) and above; a filtered list (2 ms, the measured caller's own route) below.
 */
export const LOADED_MIN_MS = 4

/** The template `path` is served under, if any. */
const templateOf = (templates: FindMyWay.Router<string>, path: string): string | undefined => {
  const q = path.indexOf("?")
  return templates.find("GET", q < 0 ? path : path.slice(0, q))?.handler
}

/** The families of `families` whose route declares an execution cost of at least `minMs`. */
export const loadedFamilies = (
  families: ReadonlyArray<Family>,
  costs: ReadonlyMap<string, number> = executionCosts(),
  minMs: number = LOADED_MIN_MS
): Array<Family> => {
  const templates = routeTemplates()
  return families.filter((family) => {
    const path = family.paths[0]
    const template = path === undefined ? undefined : templateOf(templates, path)
    return template !== undefined && (costs.get(template) ?? 0) >= minMs
  })
}
