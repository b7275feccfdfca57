/**
 * The bench's routes are derived from the `HttpApi` value: every route is measured or its
 * definition says why not, each derived URI is one the server answers 200, and a route added
 * to the `Api` is measured with no edit to bench/ (or the derivation names what it lacks).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Api, benchPlan, buildDataset, endpointsOf, fromRecords, servedPath } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { servedDescription } from "../packages/server/src/openapi.ts"
import { FAMILY, SIRE, SON } from "../packages/server/src/testing/family.ts"
import { call, testServer } from "../packages/server/src/testing/server.ts"
import { deriveRoutes, type Description, type Values } from "./routes.ts"

const description = servedDescription(buildDataset(FAMILY)).document as Description
const VALUES: Values = {
  ancestors: SON,
  offspring: SIRE,
  named: { race: "Selle Francais", robe: "Bai", namePrefix: "jap", twoWords: "jappeloup de" }
}
const derived = deriveRoutes(endpointsOf(Api), description, VALUES)
const everyRoute = endpointsOf(Api).map((endpoint) => servedPath(endpoint.path))

describe("the bench's routes, from the Api", () => {
  it("every route of the Api is measured, or its definition says why not (and not both)", () => {
    const measured = new Set(derived.routes.map((route) => route.route))
    const excluded = derived.excluded.map(({ route }) => route)
    assert.deepStrictEqual([...everyRoute].sort(), [...measured, ...excluded].sort())
    assert.deepStrictEqual(excluded, ["/v1/export/equides", "/v1/export/equides.parquet"])
    for (const { why } of derived.excluded) assert.isAbove(why.length, 20)
  })

  it("the URIs each plan names, with the description's examples and the bench's picks", () => {
    const byName = Object.fromEntries(derived.routes.map((route) => [route.name, `${route.kind} ${route.path}`]))
    assert.deepStrictEqual(byName, {
      "decouverte": "ordinary /",
      "sante": "ordinary /healthz",
      "disponibilite": "ordinary /readyz",
      "description": "ordinary /openapi.json",
      "meta": "ordinary /v1/meta",
      "liste, default page": "ordinary /v1/equides",
      "liste, 3 filters": "ordinary /v1/equides?race=Selle%20Francais&sexe=Femelle&robe=Bai",
      "liste, tri=nom offset 9000": "ordinary /v1/equides?tri=nom&offset=9000",
      "liste, nom= prefix": "ordinary /v1/equides?nom=jap",
      "fiche": `ordinary /v1/equides/${SON}`,
      "pedigree, 8 generations": `ordinary /v1/equides/${SON}/pedigree?generations=8`,
      "descendance": `ordinary /v1/equides/${SIRE}/descendance`,
      "statistiques_descendance": `ordinary /v1/equides/${SIRE}/descendance/statistiques`,
      "consanguinite, 8 generations": `ordinary /v1/equides/${SON}/consanguinite`,
      "consanguinite, 12 generations": `deep /v1/equides/${SON}/consanguinite?generations=12`,
      // pere and mere are required: the description's examples (the documentation's mating).
      "accouplement": `ordinary /v1/accouplements?pere=${SIRE}&mere=AAAAAgAAAAAtAAAAAAAAXw`,
      "choix_etalon": "deep /v1/accouplements/etalons?mere=AAAAAgAAAAAtAAAAAAAAXw",
      "choix_etalon, une race": "deep /v1/accouplements/etalons?mere=AAAAAgAAAAAtAAAAAAAAXw&race=Selle%20Francais",
      "genetique": `ordinary /v1/equides/${SON}/genetique`,
      "genetique_race": "ordinary /v1/stats/genetique",
      "recherche, one letter": "ordinary /v1/search?q=A",
      "recherche, two words": "ordinary /v1/search?q=jappeloup%20de",
      "referentiel": "ordinary /v1/referentiels/races",
      "statistiques": "ordinary /v1/stats",
      "repartition, race": "breakdown /v1/stats/repartition?dimension=race",
      "repartition, race, filtered": "ordinary /v1/stats/repartition?dimension=race&sexe=Femelle&annee_min=2000",
      // code is required: the description's example, the most frequent code.
      "reproducteurs": "breakdown /v1/stats/reproducteurs?code=BTR",
      "reproducteurs, born 2010 on": "breakdown /v1/stats/reproducteurs?code=BTR&annee_min=2010&produits_min=10"
    })
  })

  describe("a route added to the Api", () => {
    const Added = HttpApi.make("added").add(HttpApiGroup.make("added").add(
      HttpApiEndpoint.get("plain", "/v1/nouveau/:id", { params: { id: Schema.String }, query: { n: Schema.optional(Schema.String) } }),
      HttpApiEndpoint.get("needs", "/v1/autre", { query: { q: Schema.String } }),
      HttpApiEndpoint.get("named", "/v1/troisieme", { query: { q: Schema.optional(Schema.String) } })
        .annotateMerge(benchPlan({ requests: [{ name: "unknown", query: { q: "{inconnu}" } }] }))
    ))
    const [plain, needs, named] = endpointsOf(Added)
    const described = (parameters: Description["paths"][string]["get"]): Description => ({ paths: { "/v1/autre": { get: parameters ?? {} } } })

    it("is measured at its plain URI with no plan and no edit to bench/", () => {
      assert.deepStrictEqual(deriveRoutes([plain], { paths: {} }, VALUES).routes, [
        { name: "/v1/nouveau/{id}", path: `/v1/nouveau/${SON}`, route: "/v1/nouveau/{id}", kind: "ordinary" }
      ])
    })

    it("takes its required parameters' examples from the description, and names the one it has no value for", () => {
      const example = described({ parameters: [{ name: "q", in: "query", required: true, example: ["abc"] }] })
      assert.deepStrictEqual(deriveRoutes([needs], example, VALUES).routes.map((route) => route.path), ["/v1/autre?q=abc"])
      const without = described({ parameters: [{ name: "q", in: "query", required: true }] })
      assert.throws(() => deriveRoutes([needs], without, VALUES), /\/v1\/autre: the bench has no value for q/)
      assert.throws(() => deriveRoutes([named], { paths: {} }, VALUES), /\/v1\/troisieme: the bench has no value for \{inconnu\}/)
    })
  })

  layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("every derived URI is one the server answers 200", () =>
      Effect.gen(function*() {
        for (const route of derived.routes) assert.strictEqual((yield* call(route.path)).status, 200, route.path)
      }))
  })
})
