/** With no data loaded (an empty extract) the service listens: probes 503 Sante, data routes 503 problems. */
import { assert, layer } from "@effect/vitest"
import { fromRecords, Sante } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { idN } from "@equides/domain/testing"
import { call, testServer } from "./testing/server.ts"

const DATA_ROUTES = [
  "/v1/meta",
  "/v1/equides",
  `/v1/equides/${idN(1)}`,
  `/v1/equides/${idN(1)}/pedigree`,
  `/v1/equides/${idN(1)}/descendance`,
  "/v1/search?q=a",
  "/v1/referentiels/races",
  "/v1/stats",
  "/v1/stats/repartition"
]

layer(testServer(fromRecords([]), { settings: { rateLimitRate: 50, rateLimitBurst: 200 } }))("no data loaded", (it) => {
  it.effect("the probes answer 503 with Sante indisponible and Retry-After", () =>
    Effect.gen(function*() {
      for (const path of ["/healthz", "/readyz"]) {
        const reply = yield* call(path)
        assert.strictEqual(reply.status, 503)
        assert.strictEqual(reply.headers["content-type"], "application/json; charset=utf-8")
        assert.deepStrictEqual(Schema.decodeUnknownSync(Sante)(reply.json), { statut: "indisponible", lignes: 0, version: "1.1.1" })
        assert.match(reply.headers["retry-after"], /^[1-9][0-9]*$/)
      }
    }))

  it.effect("every data route answers a 503 problem with Retry-After", () =>
    Effect.gen(function*() {
      for (const path of DATA_ROUTES) {
        const reply = yield* call(path)
        assert.strictEqual(reply.status, 503, path)
        assert.strictEqual(reply.headers["content-type"], "application/problem+json")
        assert.include(reply.json, {
          type: "/documentation#erreur-service-surcharge",
          title: "Service momentanément indisponible",
          status: 503
        })
        assert.match(reply.headers["retry-after"], /^[1-9][0-9]*$/)
        assert.strictEqual(reply.headers["cache-control"], "no-store")
      }
    }))

  it.effect("503s carry no ETag, never turn into a 304, and keep the common headers", () =>
    Effect.gen(function*() {
      for (const path of ["/healthz", ...DATA_ROUTES]) {
        for (const ifNoneMatch of [undefined, "*"]) {
          const reply = yield* call(path, ifNoneMatch === undefined ? {} : { headers: { "if-none-match": ifNoneMatch } })
          assert.strictEqual(reply.status, 503, path)
          assert.strictEqual(reply.headers["cache-control"], "no-store", path)
          assert.isUndefined(reply.headers["etag"], path)
          assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
          assert.strictEqual(reply.headers["access-control-allow-origin"], "*")
          assert.strictEqual(reply.headers["vary"], "Accept-Encoding")
          assert.strictEqual(reply.headers["ratelimit-policy"], "\"default\";q=200;w=4")
        }
      }
    }))

  it.effect("what still answers is cacheable as usual", () =>
    Effect.gen(function*() {
      const home = yield* call("/")
      assert.match(home.headers["etag"], /^"[0-9a-f]{16}"$/)
      assert.strictEqual((yield* call("/", { headers: { "if-none-match": home.headers["etag"] } })).status, 304)
    }))

  it.effect("discovery, description and documentation still answer", () =>
    Effect.gen(function*() {
      for (const path of ["/", "/openapi.json", "/documentation"]) {
        assert.strictEqual((yield* call(path)).status, 200, path)
      }
      assert.strictEqual((yield* call("/")).json.lignes, 0)
    }))
})
