/** The typed client derived from the API definition, against the real server. */
import { assert, layer } from "@effect/vitest"
import { fromRecords, makeApiClient } from "@equides/domain"
import * as Effect from "effect/Effect"
import { DAUGHTER, FAMILY, GELDING, GRANDSON, SIRE, SON } from "./testing/family.ts"
import { testServer } from "./testing/server.ts"

/** The test HttpClient already points at the server: no base URL to add. */
const client = makeApiClient("")

layer(testServer(fromRecords(FAMILY)))("typed client", (it) => {
  it.effect("calls every group with typed parameters and decodes the answers", () =>
    Effect.gen(function*() {
      const api = yield* client
      const sante = yield* api.healthz({ query: {} })
      assert.strictEqual(sante.statut, "ok")
      const page = yield* api.equides.list({ query: { race: ["Selle Francais"], sexe: ["Male"], limite: 2, tri: "nom" } })
      assert.strictEqual(page.pagination.total, 3)
      assert.strictEqual(page.donnees.length, 2)
      const record = yield* api.equides.get({ params: { id: SON }, query: {} })
      assert.strictEqual(record.pere?.id, SIRE)
      const tree = yield* api.equides.pedigree({ params: { id: SON }, query: { generations: 1 } })
      assert.strictEqual(tree.noeuds, 3)
      const offspring = yield* api.equides.descendance({ params: { id: SIRE }, query: { limite: 1, offset: 1 } })
      assert.deepStrictEqual(offspring.donnees.map((p) => p.id), [GELDING])
      const suggestions = yield* api.search.suggest({ query: { q: "bold" } })
      assert.strictEqual(suggestions.resultats[0]?.nom, "BOLD EAGLE")
      const robes = yield* api.referentiels.get({ params: { dimension: "robes" }, query: {} })
      assert.strictEqual(robes.nombre_de_modalites, 4)
      const breakdown = yield* api.stats.repartition({ query: { dimension: "sexe" } })
      assert.strictEqual(breakdown.effectif_filtre, FAMILY.length)
      const inbreeding = yield* api.consanguinite.equide({ params: { id: GRANDSON }, query: { generations: 3 } })
      assert.strictEqual(inbreeding.ancetres.emplacements, 14)
      const mating = yield* api.consanguinite.accouplement({ query: { pere: SON, mere: DAUGHTER } })
      assert.strictEqual(mating.coefficient, 0.125)
      const meta = yield* api.meta({ query: {} })
      assert.strictEqual(meta.version_api, "1.1.1")
    }))

  it.effect("decodes problems into their classes", () =>
    Effect.gen(function*() {
      const api = yield* client
      const missing = yield* api.equides.get({ params: { id: "nope" }, query: {} }).pipe(Effect.flip)
      assert.strictEqual(missing._tag, "Introuvable")
      const noDam = yield* api.consanguinite.accouplement({ query: { pere: SON, mere: "nope" } }).pipe(Effect.flip)
      assert.strictEqual(noDam._tag, "Introuvable")
      if (noDam._tag === "Introuvable") assert.strictEqual(noDam.parametre, "mere")
      const refused = yield* api.equides.list({ query: { race: ["Licorne"] } }).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "ParametreInvalide")
      if (refused._tag === "ParametreInvalide") assert.strictEqual(refused.parametre, "race")
      // Bounds are checked before sending, by the same schema as the server's.
      const early = yield* api.equides.list({ query: { limite: 500 } }).pipe(Effect.flip)
      assert.strictEqual(early._tag, "SchemaError")
    }))
})
