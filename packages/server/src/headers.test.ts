/**
 * The headers every response carries (errors included), CORS preflight, and the request-size
 * limits: query too big (400 `parametre: "query"`), path or headers too big for Node's parser
 * (431 problem), through the real Node server.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { isOversized, scanQuery } from "./admission/requestSize.ts"
import { DESIGN_EXPOSED_HEADERS as EXPOSED_HEADERS, SPEC_CACHE_CONTROL as CACHE_POLICY } from "./testing/spec.ts"
import { FAMILY } from "./testing/family.ts"
import { raw, type RawReply, rawSocket, serverUrl, testServer, TRUSTED_LOOPBACK } from "./testing/server.ts"

const COMMON = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS
}

const assertCommon = (reply: RawReply, what: string) => {
  for (const [name, value] of Object.entries(COMMON)) assert.strictEqual(reply.headers[name], value, `${what}: ${name}`)
  assert.include(reply.headers["vary"] ?? "", "Accept-Encoding", what)
}

const problem = (reply: RawReply) => JSON.parse(reply.body.toString("utf8"))

describe("scanQuery", () => {
  it("counts parameters and bytes, and reads the cost parameters", () => {
    assert.deepStrictEqual(scanQuery("/v1/equides"), {
      count: 0,
      bytes: 0,
      limite: undefined,
      vue: undefined,
      generations: undefined,
      dimension: undefined,
      paging: 0
    })
    const scan = scanQuery("/v1/equides?race=a&&limite=%35&vue=complet&limite=9&generations&dimension=sexe")
    assert.include(scan, { count: 6, limite: "5", vue: "complet", generations: "", dimension: "sexe", paging: 3 })
    assert.include(scanQuery("/v1/equides?tri=-nom&offset=40&limite=20"), { count: 3, paging: 3 })
    const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join("&")
    assert.isFalse(isOversized(scanQuery(`/?${params(64)}`)))
    assert.isTrue(isOversized(scanQuery(`/?${params(65)}`)))
    assert.isFalse(isOversized(scanQuery(`/?q=${"a".repeat(4094)}`)))
    assert.isTrue(isOversized(scanQuery(`/?q=${"a".repeat(4095)}`)))
  })
})

layer(testServer(fromRecords(FAMILY), { settings: { rateLimitRate: 50, rateLimitBurst: 1000, trustedProxies: TRUSTED_LOOPBACK } }))(
  "headers and limits",
  (it) => {
    it.effect("problems carry nosniff, Referrer-Policy, CORS, RateLimit, an ETag and the caching policy", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [string, number, string?]> = [
          ["/v1/equides?limite=0", 400],
          ["/v1/equides?inconnu=1", 400],
          ["/v1/equides/AAAAAAAAAAAAAAAAAAAAAA", 404],
          ["/nulle-part", 404],
          ["/v1/stats", 405, "DELETE"]
        ]
        for (const [path, status, method] of cases) {
          const reply = yield* raw(path, method === undefined ? {} : { method })
          assert.strictEqual(reply.status, status, path)
          assert.strictEqual(reply.headers["content-type"], "application/problem+json", path)
          assertCommon(reply, path)
          assert.strictEqual(reply.headers["ratelimit-policy"], "\"default\";q=1000;w=20", path)
          assert.match(reply.headers["ratelimit"] ?? "", /^"default";r=\d+;t=\d+$/, path)
          assert.strictEqual(reply.headers["cache-control"], CACHE_POLICY, path)
          if (method === undefined) assert.match(reply.headers["etag"] ?? "", /^"[0-9a-f]{16}"$/, path)
        }
        assert.strictEqual((yield* raw("/v1/stats", { method: "DELETE" })).headers["allow"], "GET, HEAD, OPTIONS")
      }))

    it.effect("successes carry them too", () =>
      Effect.gen(function*() {
        for (const path of ["/", "/v1/stats", "/healthz", "/documentation"]) assertCommon(yield* raw(path), path)
      }))

    it.effect("OPTIONS is a CORS preflight: 204, GET and HEAD allowed, requested headers echoed", () =>
      Effect.gen(function*() {
        const reply = yield* raw("/v1/equides", {
          method: "OPTIONS",
          headers: {
            origin: "https://example.org",
            "access-control-request-method": "GET",
            "access-control-request-headers": "if-none-match"
          }
        })
        assert.strictEqual(reply.status, 204)
        assert.strictEqual(reply.body.length, 0)
        assert.strictEqual(reply.headers["access-control-allow-origin"], "*")
        assert.strictEqual(reply.headers["access-control-allow-methods"], "GET, HEAD")
        assert.strictEqual(reply.headers["access-control-allow-headers"], "if-none-match")
        assert.strictEqual(reply.headers["access-control-max-age"], "86400")
        assert.strictEqual(reply.headers["allow"], "GET, HEAD, OPTIONS")
        assert.strictEqual((yield* raw("/nulle-part", { method: "OPTIONS" })).status, 404)
      }))

    it.effect("more than 64 parameters or 4096 bytes of query: 400 with parametre query, before anything runs", () =>
      Effect.gen(function*() {
        const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join("&")
        for (const path of [`/v1/equides?${params(65)}`, `/v1/equides?nom=${"a".repeat(4093)}`, `/healthz?${params(100)}`]) {
          const reply = yield* raw(path)
          assert.strictEqual(reply.status, 400, path.slice(0, 40))
          assert.include(problem(reply), { type: "/documentation#erreur-parametre-invalide", status: 400, parametre: "query" })
          assertCommon(reply, "oversized")
          assert.match(reply.headers["ratelimit"] ?? "", /^"default";r=\d+;t=\d+$/)
        }
        // At the limits: an ordinary answer (here the unknown parameter is named).
        const atLimit = yield* raw(`/v1/equides?${params(64)}`)
        assert.strictEqual(atLimit.status, 400)
        assert.strictEqual(problem(atLimit).parametre, "p0")
        assert.strictEqual((yield* raw(`/v1/equides?nom=${"a".repeat(4092)}`)).status, 200)
      }))

    it.effect("a 100 KB path or a huge header is a 431 problem, and the server keeps serving", () =>
      Effect.gen(function*() {
        const base = yield* serverUrl
        const answers = [
          yield* rawSocket(base, `GET /v1/${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
          yield* rawSocket(base, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`)
        ]
        for (const answer of answers) {
          const [head, body] = answer.split("\r\n\r\n")
          assert.match(head, /^HTTP\/1\.1 431 /)
          assert.include(head, "Content-Type: application/problem+json")
          assert.include(head, "x-content-type-options: nosniff")
          assert.include(head, "access-control-allow-origin: *")
          assert.include(JSON.parse(body), { type: "/documentation#erreur-requete-invalide", status: 431 })
        }
        const garbage = yield* rawSocket(base, "NONSENSE\r\n\r\n")
        assert.match(garbage, /^HTTP\/1\.1 400 /)
        assert.strictEqual((yield* raw("/healthz")).status, 200)
      }))

    it.effect("a long path under Node's limit is an ordinary 404 problem", () =>
      Effect.gen(function*() {
        const reply = yield* raw(`/v1/equides/${"a".repeat(10_000)}`)
        assert.strictEqual(reply.status, 404)
        assert.strictEqual(reply.headers["content-type"], "application/problem+json")
      }))

    it.effect("telemetry is not on the public port: /metrics is a 404 problem", () =>
      Effect.gen(function*() {
        const reply = yield* raw("/metrics")
        assert.strictEqual(reply.status, 404)
        assert.strictEqual(reply.headers["content-type"], "application/problem+json")
        assert.notInclude(reply.body.toString("utf8"), "equides_http_requests_total")
      }))
  }
)
