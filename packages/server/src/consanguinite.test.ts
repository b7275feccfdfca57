/** The consanguinity routes through the real pipeline: bodies, problems, the HTTP contract. */
import { assert, describe, layer } from "@effect/vitest"
import { Accouplement, Consanguinite, fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { ABSENT, DAM, DAUGHTER, FAMILY, GRANDSON, shape, SIRE, SON } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"
import { SPEC_JSON as JSON_UTF8 } from "./testing/spec.ts"

const PROBLEM = "application/problem+json"

layer(testServer(fromRecords(FAMILY)))("consanguinite routes", (it) => {
  describe("GET /v1/equides/{id}/consanguinite", () => {
    it.effect("serves Consanguinite, 8 generations deep by default", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/equides/${GRANDSON}/consanguinite`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Consanguinite, reply.json)
        assert.include(body, { id: GRANDSON, nom: "ROCK AND ROLL", generations: 8, coefficient: 0 })
        assert.deepStrictEqual(body.ancetres_communs, [])
        // Sire known, his two parents known, nothing beyond: 1/2, 2/4 then 0.
        assert.deepStrictEqual(body.completude.par_generation.slice(0, 3), [0.5, 0.5, 0])
        assert.deepStrictEqual(body.ancetres, { emplacements: 510, connus: 3, distincts: 3 })
        const shallow = shape(Consanguinite, (yield* call(`/v1/equides/${GRANDSON}/consanguinite?generations=1`)).json)
        assert.deepStrictEqual(shallow.completude.par_generation, [0.5])
      }))

    it.effect("refuses generations outside 1..12 and unknown parameters (400), answers 404 to an unknown or malformed id", () =>
      Effect.gen(function*() {
        for (const generations of ["0", "13", "huit"]) {
          const reply = yield* call(`/v1/equides/${SON}/consanguinite?generations=${generations}`)
          assert.strictEqual(reply.status, 400, generations)
          assert.strictEqual(reply.headers["content-type"], PROBLEM)
          assert.strictEqual(reply.json.parametre, "generations")
        }
        assert.strictEqual((yield* call(`/v1/equides/${SON}/consanguinite?generations=12`)).status, 200)
        const unknown = yield* call(`/v1/equides/${ABSENT}/consanguinite`)
        const malformed = yield* call("/v1/equides/pas-un-id/consanguinite")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.text, malformed.text)
      }))

    it.effect("carries an ETag and answers 304 to a matching If-None-Match", () =>
      Effect.gen(function*() {
        const path = `/v1/equides/${SON}/consanguinite?generations=4`
        const reply = yield* call(path)
        const etag = reply.headers["etag"]
        assert.isString(etag)
        assert.match(reply.headers["cache-control"], /max-age=3600/)
        const again = yield* call(path, { headers: { "if-none-match": etag } })
        assert.strictEqual(again.status, 304)
        assert.strictEqual(again.text, "")
        assert.notStrictEqual((yield* call(`/v1/equides/${SON}/consanguinite?generations=5`)).headers["etag"], etag)
      }))
  })

  describe("GET /v1/accouplements", () => {
    it.effect("serves Accouplement: paternal half-sibs give F = 0.125 and R = 0.25 through their sire", () =>
      Effect.gen(function*() {
        const reply = yield* call(`/v1/accouplements?pere=${SON}&mere=${DAUGHTER}`)
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
        const body = shape(Accouplement, reply.json)
        assert.deepStrictEqual(body.pere, { id: SON, nom: "QUAPRICE BOIMARGOT" })
        assert.include(body, { generations: 8, coefficient: 0.125, coefficient_de_parente: 0.25 })
        assert.deepStrictEqual(body.ancetres_communs.map((a) => [a.id, a.positions_pere, a.positions_mere]), [[SIRE, [2], [2]]])
        assert.strictEqual(body.completude.pere.par_generation.length, 7)
        assert.strictEqual(body.completude.pere.par_generation[0], 1)
      }))

    it.effect("answers 404 naming the parent not found, 400 for the same id twice or a missing parent", () =>
      Effect.gen(function*() {
        const noDam = yield* call(`/v1/accouplements?pere=${SON}&mere=${ABSENT}`)
        assert.strictEqual(noDam.status, 404)
        assert.strictEqual(noDam.headers["content-type"], PROBLEM)
        assert.include(noDam.json, { type: "/documentation#erreur-introuvable", parametre: "mere" })
        const noSire = yield* call(`/v1/accouplements?pere=pas-un-id&mere=${DAM}`)
        assert.include(noSire.json, { status: 404, parametre: "pere" })
        const neither = yield* call(`/v1/accouplements?pere=${ABSENT}&mere=x`)
        assert.include(neither.json, { status: 404, parametre: "pere" })
        assert.match(neither.json.detail, /pere, ni .* mere/)
        const twice = yield* call(`/v1/accouplements?pere=${SIRE}&mere=${SIRE}`)
        assert.include(twice.json, { status: 400, type: "/documentation#erreur-parametre-invalide", parametre: "mere" })
        const missing = yield* call(`/v1/accouplements?pere=${SIRE}`)
        assert.include(missing.json, { status: 400, parametre: "mere" })
        assert.strictEqual((yield* call(`/v1/accouplements?pere=${SON}&mere=${DAUGHTER}&generations=13`)).status, 400)
      }))
  })

  it.effect("/documentation defines the terms the routes use", () =>
    Effect.gen(function*() {
      const page = yield* call("/documentation")
      assert.include(page.text, "id=\"consanguinite\"")
      assert.include(page.text, "MacCluer")
      assert.include(page.text, "<code>GET /v1/accouplements</code>")
    }))
})
