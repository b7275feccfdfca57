/**
 * A family of varied traffic for every route of the API that runs on the workers
 * (`onWorkers` on its definition) and that no hand-drawn family of `corpora.ts` covers, so that a
 * new route on the workers is measured by `--diverse` with no edit to bench/ (a route whose
 * definition excludes it from the load bench, `benchExcluded`, is left out). Its paths: every
 * record of the id pool once for a route about a record (`{id}`; the sampled parents when its
 * plan's subject is `offspring`, the sampled records of the most frequent race when its first use
 * per race takes long, `firstUsePer`), a real dam or sire for a required `mere` or `pere` (and a
 * family more for each named request of its plan, with that request's query); otherwise
 * its plain URI repeated (`sameUri`, measured with the response cache off). The other values are
 * the served description's examples (`routes.ts` `uriOf`).
 */
import { Bench, type BenchRequest, Discovery, OnWorkers, servedPath } from "@equides/domain"
import * as Context from "effect/Context"
import type { HttpApiEndpoint } from "effect/http-api"
import { Rng } from "../../packages/ingest/src/generate/prng.ts"
import { type Description, uriOf } from "../routes.ts"
import type { CorpusOptions, Family, RouteFamilyName } from "./corpora.ts"
import { shuffle } from "./random.ts"
import type { Sample } from "./sample.ts"

/** The seed streams of these families start here, past those of `corpora.ts`. */
const FIRST_STREAM = 100

/** The race of most of the sample's rows (the first met on ties), if any row has one. */
const mostFrequentRace = (sample: Sample): string | undefined => {
  const counts = new Map<string, number>()
  for (const { race } of sample.rows) if (race !== undefined && race !== "") counts.set(race, (counts.get(race) ?? 0) + 1)
  let best: string | undefined
  for (const [race, count] of counts) if (best === undefined || count > counts.get(best)!) best = race
  return best
}

/** Every route on the workers of `endpoints` none of `families` covers, as a family of its own. */
export const routeFamilies = (
  endpoints: ReadonlyArray<HttpApiEndpoint.Top>,
  description: Description,
  sample: Sample,
  options: CorpusOptions,
  families: ReadonlyArray<Family>
): Array<Family> => {
  const covered = new Set(families.flatMap((family) => family.route ?? []))
  const parents = sample.parents.filter((parent) => parent.descendants > 0)
  const ofRole = (role: "pere" | "mere") => parents.filter((parent) => parent.role === role).map((parent) => parent.id)
  return endpoints.flatMap((endpoint, index): Array<Family> => {
    const route = servedPath(endpoint.path)
    const plan = Context.get(endpoint.annotations, Bench)
    if (Context.get(endpoint.annotations, OnWorkers) === undefined || plan.excluded !== undefined || covered.has(route)) return []
    const name: RouteFamilyName = `api ${Context.get(endpoint.annotations, Discovery)?.key ?? route}`
    const rng = new Rng(options.seed, 1, FIRST_STREAM + index)
    const plain = uriOf(endpoint, description, () => undefined)
    const parameters = description.paths[route]?.get?.parameters ?? []
    const drawn = (["mere", "pere"] as const).find((role) => parameters.some((p) => p.name === role && p.in === "query" && p.required === true))
    if (route.includes("{id}")) {
      const race = plan.firstUsePer === "race" ? mostFrequentRace(sample) : undefined
      const ids = plan.subject === "offspring"
        ? parents.map((parent) => parent.id)
        : race === undefined
        ? sample.ids
        : [...new Set(sample.rows.filter((row) => row.race === race).map((row) => row.id))]
      const paths = shuffle(rng, ids).map((id) => uriOf(endpoint, description, (param) => (param === "id" ? id : undefined)))
      const which = plan.subject === "offspring" ? "every sampled parent" : race === undefined ? "every id" : `every sampled record of race ${race}`
      return [{ name, route, description: `${route}, ${which} once`, paths }]
    }
    if (drawn !== undefined && ofRole(drawn).length > 0) {
      const ids = shuffle(rng, ofRole(drawn)).slice(0, options.size)
      const which = `every sampled ${drawn === "mere" ? "dam" : "sire"} once`
      // The plain URI's, then one family per named request of the plan, its query added to each.
      const named = (plan.requests ?? []).filter((request) => request.name !== undefined)
      return [{}, ...named].map((request: BenchRequest) => ({
        name: request.name === undefined ? name : `${name} ${request.name}`,
        route,
        description: `${route}, ${which}${request.name === undefined ? "" : `, ${request.name}`}`,
        paths: ids.map((id) => uriOf(endpoint, description, (param) => (param === drawn ? id : undefined), request.query))
      }))
    }
    return [{ name, route, description: `${plain} (one URI)`, paths: Array.from({ length: options.size }, () => plain), sameUri: true }]
  })
}
