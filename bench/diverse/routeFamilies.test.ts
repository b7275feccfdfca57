import { assert, describe, it, layer } from "@effect/vitest"
import { Api, Bench, buildDataset, endpointsOf, fromRecords, OnWorkers, servedPath } from "@equides/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { servedDescription } from "../../packages/server/src/openapi.ts"
import { DAM, DAUGHTER, FAMILY, GRANDSON, SIRE, SON } from "../../packages/server/src/testing/family.ts"
import { call, testServer } from "../../packages/server/src/testing/server.ts"
import type { Description } from "../routes.ts"
import { buildCorpora } from "./corpora.ts"
import { routeFamilies } from "./routeFamilies.ts"
import type { Sample } from "./sample.ts"

const description = servedDescription(buildDataset(FAMILY)).document as Description
const SAMPLE: Sample = {
  records: 5,
  ids: [SIRE, DAM, SON, DAUGHTER, GRANDSON],
  rows: [
    { id: SON, nom: "QUAPRICE BOIMARGOT", race: "Selle Francais", sexe: "Male", annee_naissance: 2000, robe: "Bai" },
    { id: GRANDSON, nom: "ROCK AND ROLL", race: "Trotteur Francais", sexe: "Male", annee_naissance: 2010, robe: "Bai" },
    { id: DAUGHTER, nom: "ÉCLAIR DU BOIS", race: "Selle Francais", sexe: "Femelle" }
  ],
  parents: [{ id: SIRE, role: "pere", descendants: 3 }, { id: DAM, role: "mere", descendants: 1 }, { id: SON, role: "pere", descendants: 0 }],
  statuses: [["Etalon Actif", 1]]
}
const options = { seed: 1, size: 4 }
const drawn = buildCorpora(SAMPLE, options)
const derived = routeFamilies(endpointsOf(Api), description, SAMPLE, options, drawn)

describe("the varied families of the routes on the workers", () => {
  it("every route on the workers the load bench does not exclude is sent by a family", () => {
    const sent = new Set([...drawn, ...derived].flatMap((family) => family.route ?? []))
    const onWorkers = endpointsOf(Api).filter((endpoint) =>
      Context.get(endpoint.annotations, OnWorkers) !== undefined && Context.get(endpoint.annotations, Bench).excluded === undefined
    )
    assert.isAbove(onWorkers.length, 0)
    for (const endpoint of onWorkers) assert.isTrue(sent.has(servedPath(endpoint.path)), endpoint.path)
  })

  it("draws, for each route no hand-drawn family covers, every id, parent or dam once, or its one URI", () => {
    assert.deepStrictEqual(
      Object.fromEntries(derived.map((family) => [family.name, { sameUri: family.sameUri === true, paths: [...family.paths].sort() }])),
      {
        "api statistiques_descendance": {
          sameUri: false,
          paths: [`/v1/equides/${SIRE}/descendance/statistiques`, `/v1/equides/${DAM}/descendance/statistiques`].sort()
        },
        "api choix_etalon": { sameUri: false, paths: [`/v1/accouplements/etalons?mere=${DAM}`] },
        // Its plan's named request: the same dams, one breed's males (the served example's race).
        "api choix_etalon une race": { sameUri: false, paths: [`/v1/accouplements/etalons?mere=${DAM}&race=Selle%20Francais`] },
        // A breed's first use is long (firstUsePer): records of the sample's most frequent race only.
        "api genetique": { sameUri: false, paths: [`/v1/equides/${SON}/genetique`, `/v1/equides/${DAUGHTER}/genetique`].sort() },
        "api genetique_race": { sameUri: true, paths: Array.from({ length: options.size }, () => "/v1/stats/genetique") },
        "api reproducteurs": { sameUri: true, paths: Array.from({ length: options.size }, () => "/v1/stats/reproducteurs?code=BTR") }
      }
    )
    // The same seed, the same order.
    assert.deepStrictEqual(routeFamilies(endpointsOf(Api), description, SAMPLE, options, drawn), derived)
  })

  layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("every path drawn is answered 200", () =>
      Effect.gen(function*() {
        for (const path of new Set(derived.flatMap((family) => family.paths))) assert.strictEqual((yield* call(path)).status, 200, path)
      }))
  })
})
