/** GET /v1/accouplements/etalons through the real pipeline: body, problems, the HTTP contract, the typed client. */
import { assert, describe, layer } from "@effect/vitest"
import { Etalons, fromRecords, makeApiClient } from "@equides/domain"
import * as Effect from "effect/Effect"
import { ABSENT, DAUGHTER, FAMILY, GRANDSON, shape, SIRE, SON, TROTTER } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"
import { SPEC_JSON as JSON_UTF8 } from "./testing/spec.ts"

const PROBLEM = "application/problem+json"
const ROUTE = `/v1/accouplements/etalons?mere=${DAUGHTER}`
/** Loaded in 2024: the mare's breed has a reference population. */
const PROVENANCE = { file: "etalons.jsonl", fingerprint: "0".repeat(64), bytes: 0, lines: FAMILY.length, ingestedAt: "2024-06-01T00:00:00.000Z" }

layer(testServer(fromRecords(FAMILY, PROVENANCE)))("GET /v1/accouplements/etalons", (it) => {
  it.effect("ranks every stallion for the mare: unrelated first, her half-brother at 0.125, her sire last at 0.25", () =>
    Effect.gen(function*() {
      const reply = yield* call(ROUTE)
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.headers["content-type"], JSON_UTF8)
      const body = shape(Etalons, reply.json)
      assert.deepStrictEqual(body.mere, { id: DAUGHTER, nom: "ÉCLAIR DU BOIS", race: "Selle Francais", annee_naissance: null })
      // Her breed's reference population is GRANDSON alone (Selle Francais born 2006–2010).
      assert.deepStrictEqual(body.donnees.map((d) => [d.etalon.id, d.coefficient, d.parente_moyenne, d.produits]), [
        [TROTTER, 0, 0, 0],
        [GRANDSON, 0.0625, 0.5, 0],
        [SON, 0.125, 0.25, 1],
        [SIRE, 0.25, 0.125, 3]
      ])
      assert.deepStrictEqual(body.pagination, { total: 4, limite: 20, offset: 0, suivant: null, precedent: null })
    }))

  it.effect("takes the list's filters, coefficient_max and pages", () =>
    Effect.gen(function*() {
      const breed = shape(Etalons, (yield* call(`${ROUTE}&race=selle%20francais&coefficient_max=0.125`)).json)
      assert.deepStrictEqual(breed.donnees.map((d) => d.etalon.id), [GRANDSON, SON])
      const page = shape(Etalons, (yield* call(`${ROUTE}&limite=1&offset=1`)).json)
      assert.deepStrictEqual(page.donnees.map((d) => d.etalon.id), [GRANDSON])
      assert.strictEqual(page.pagination.suivant, `${ROUTE}&limite=1&offset=2`)
      assert.strictEqual(page.pagination.precedent, `${ROUTE}&limite=1&offset=0`)
    }))

  describe("refusals, as problems naming the parameter", () => {
    const refused = (path: string, status: number, parametre: string) =>
      Effect.gen(function*() {
        const reply = yield* call(path)
        assert.strictEqual(reply.status, status, path)
        assert.strictEqual(reply.headers["content-type"], PROBLEM, path)
        assert.strictEqual(reply.json.parametre, parametre, path)
        return reply.json
      })

    it.effect("mere missing 400, unknown or malformed 404, not a Femelle 400", () =>
      Effect.gen(function*() {
        yield* refused("/v1/accouplements/etalons", 400, "mere")
        yield* refused(`/v1/accouplements/etalons?mere=${ABSENT}`, 404, "mere")
        yield* refused("/v1/accouplements/etalons?mere=pas-un-id", 404, "mere")
        const stallion = yield* refused(`/v1/accouplements/etalons?mere=${SON}`, 400, "mere")
        assert.match(stallion.detail, /sexe Male/)
      }))

    it.effect("sexe given 400; coefficient_max outside 0..1 or not a number 400; limite and offset out of bounds 400", () =>
      Effect.gen(function*() {
        yield* refused(`${ROUTE}&sexe=Male`, 400, "sexe")
        for (const value of ["-0.1", "1.5", "abc", ""]) yield* refused(`${ROUTE}&coefficient_max=${value}`, 400, "coefficient_max")
        for (const value of ["0", "1"]) assert.strictEqual((yield* call(`${ROUTE}&coefficient_max=${value}`)).status, 200, value)
        yield* refused(`${ROUTE}&limite=0`, 400, "limite")
        yield* refused(`${ROUTE}&limite=101`, 400, "limite")
        yield* refused(`${ROUTE}&offset=10001`, 400, "offset")
        yield* refused(`${ROUTE}&race=Licorne`, 400, "race")
      }))
  })

  it.effect("carries an ETag, answers 304 to a matching If-None-Match, and HEAD the headers of GET without a body", () =>
    Effect.gen(function*() {
      const reply = yield* call(ROUTE)
      const etag = reply.headers["etag"]
      assert.isString(etag)
      const again = yield* call(ROUTE, { headers: { "if-none-match": etag } })
      assert.strictEqual(again.status, 304)
      assert.strictEqual(again.text, "")
      assert.notStrictEqual((yield* call(`${ROUTE}&limite=2`)).headers["etag"], etag)
      const head = yield* call(ROUTE, { method: "HEAD" })
      assert.strictEqual(head.status, 200)
      assert.strictEqual(head.text, "")
      assert.strictEqual(head.headers["etag"], etag)
    }))

  it.effect("the typed client calls it and decodes the answer", () =>
    Effect.gen(function*() {
      const api = yield* makeApiClient("")
      const body = yield* api.consanguinite.etalons({ query: { mere: DAUGHTER, coefficient_max: 0.1, limite: 1 } })
      assert.deepStrictEqual(body.donnees.map((d) => d.etalon.id), [TROTTER])
      assert.strictEqual(body.pagination.total, 2)
    }))
})
