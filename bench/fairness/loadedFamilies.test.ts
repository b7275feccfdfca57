import { assert, describe, it } from "@effect/vitest"
import { Api, endpointsOf, ExecutionCost, OnWorkers } from "@equides/domain"
import * as Context from "effect/Context"
import type { Family, FamilyName } from "../diverse/corpora.ts"
import { HEAVY_EXECUTION_MS } from "../../packages/server/src/execution/requester.ts"
import { loadedFamilies } from "./loadedFamilies.ts"

const ID = "AAAAAAAAAAAAAAAAAAAAAA"
const DAM = "BBBBBBBBBBBBBBBBBBBBBA"

const family = (name: FamilyName, ...paths: Array<string>): Family => ({ name, description: name, paths })

/** One family per kind of the bench's traffic, as `familiesOf` draws them (a path or two each). */
const FAMILIES: ReadonlyArray<Family> = [
  family("record", `/v1/equides/${ID}`),
  family("pedigree", `/v1/equides/${ID}/pedigree?generations=5`),
  family("list", "/v1/equides?race=Trotteur%20Fran%C3%A7ais&tri=nom"),
  family("autocomplete", "/v1/search?q=Ab"),
  family("breakdown", "/v1/stats/repartition?dimension=robe&sexe=Femelle", "/v1/stats/repartition?dimension=race"),
  family("stats", "/v1/stats"),
  family("consanguinity-12", `/v1/equides/${ID}/consanguinite?generations=12`),
  family("matings", `/v1/accouplements?pere=${ID}&mere=${DAM}`),
  family("explorer-record", `/explorer/equides/${ID}`),
  family("explorer-list", "/explorer/equides?race=Pur%20Sang"),
  family("explorer-stats", "/explorer/stats"),
  family("api choix_etalon", `/v1/accouplements/etalons?mere=${DAM}`),
  family("api genetique_race", "/v1/stats/genetique"),
  family("api statistiques_descendance", `/v1/equides/${ID}/descendance/statistiques`)
]

describe("the fairness bench's loaded caller", () => {
  it("sends the families of the routes declaring at least 4 ms of execution and the deep computations: the stallions' ranking, a breed's genetics, breakdowns, consanguinity at 12 generations, the explorer's list and statistics", () => {
    assert.strictEqual(HEAVY_EXECUTION_MS, 4)
    assert.deepStrictEqual(
      loadedFamilies(FAMILIES).map((f) => f.name),
      ["breakdown", "consanguinity-12", "explorer-list", "explorer-stats", "api choix_etalon", "api genetique_race"]
    )
  })

  it("a route's deep requests only: consanguinity at 12 generations, not at 8", () => {
    const at8 = family("consanguinity-8", `/v1/equides/${ID}/consanguinite`)
    assert.deepStrictEqual(loadedFamilies([at8, family("consanguinity-12", `/v1/equides/${ID}/consanguinite?generations=12`)]).map((f) => f.name), ["consanguinity-12"])
    // Deep by its plan, whatever its declared cost.
    assert.lengthOf(loadedFamilies(FAMILIES.filter((f) => f.name === "api choix_etalon"), new Map()), 1)
  })

  it("follows the declared costs: every route on the workers declaring at least the threshold is loaded, none below", () => {
    const costly = endpointsOf(Api).filter((endpoint) =>
      Context.get(endpoint.annotations, OnWorkers) !== undefined && Context.get(endpoint.annotations, ExecutionCost) >= HEAVY_EXECUTION_MS
    ).map((endpoint) => endpoint.path)
    assert.includeMembers(costly, ["/v1/stats/repartition", "/v1/accouplements/etalons"])
    // A family whose route costs what the threshold asks is loaded; the same family under a cheaper table is not.
    const breakdowns = FAMILIES.filter((f) => f.name === "breakdown")
    assert.lengthOf(loadedFamilies(breakdowns, new Map([["/v1/stats/repartition", HEAVY_EXECUTION_MS]])), 1)
    assert.lengthOf(loadedFamilies(breakdowns, new Map([["/v1/stats/repartition", HEAVY_EXECUTION_MS / 2]])), 0)
    // A cheap route made costly joins the load (beside the deep computations, loaded whatever the table).
    assert.deepStrictEqual(loadedFamilies(FAMILIES, new Map([["/v1/equides/:id", 5]])).map((f) => f.name), ["record", "consanguinity-12", "api choix_etalon"])
  })

  it("leaves out a family with no path or whose path no route serves", () => {
    assert.deepStrictEqual(loadedFamilies([family("explorer-stats"), family("record", "/nowhere")]), [])
  })
})
