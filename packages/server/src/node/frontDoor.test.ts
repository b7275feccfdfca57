/**
 * The front door on its own, with stand-ins for Node's request and response: what it answers, what
 * it hands to the application (with the admission already taken, the quota charged once), and
 * what it leaves alone. Through a real server, `caching.test.ts` checks that its answers are the
 * pipeline's.
 */
import { assert, describe, it } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HttpServerResponse } from "effect/http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Admission, admittedAt, type Gatekeeper } from "../admission/Gatekeeper.ts"
import { Release } from "../release.ts"
import { settingsLayer } from "../config.ts"
import type { DirectLane } from "../execution/directLane.ts"
import { LANE_BUDGET_MS, makeFrontDoor } from "./frontDoor.ts"
import { makeNodeServer } from "./server.ts"
import { makeTurns } from "./turns.ts"
import { SPEC_CACHE_CONTROL as CACHE_POLICY } from "../testing/spec.ts"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { parsePrometheus, sampleValue } from "../testing/prometheus.ts"
import { rawSocket } from "../testing/server.ts"

const environment = Layer.provideMerge(
  Admission.layer,
  Layer.mergeAll(settingsLayer({ rateLimitRate: 10, rateLimitBurst: 100, metrics: undefined }), Telemetry.layer, fromRecords(FAMILY), Release.layer)
)

interface Written {
  handedOn: boolean
  status?: number
  headers?: Readonly<Record<string, unknown>>
  body?: unknown
  ended: boolean
}

const exchange = (url: string, headers: Record<string, string> = {}, method = "GET") => {
  const request = { method, url, headers, socket: { remoteAddress: "203.0.113.9" } }
  const written: Written = { ended: false, handedOn: false }
  const response = {
    destroyed: false,
    writeHead: (status: number, head: Readonly<Record<string, unknown>>) => {
      written.status = status
      written.headers = head
    },
    end: (body?: unknown) => {
      written.body = body
      written.ended = true
    }
  }
  const handOn = () => {
    written.handedOn = true
  }
  return {
    request,
    response,
    written,
    args: [request as unknown as IncomingMessage, response as unknown as ServerResponse, handOn] as const
  }
}

/** Puts a representation for `url` in the cache, as the pipeline would after running it. */
const keep = (gatekeeper: Gatekeeper, url: string, text: string) => {
  const etag = gatekeeper.admit("GET", url, {}, "198.51.100.1").etag ?? ""
  const response = HttpServerResponse.text(text, { headers: { etag, "cache-control": CACHE_POLICY } })
  const body = new TextEncoder().encode(text)
  gatekeeper.cache.set(etag, url, "identity", "", { status: 200, headers: response.headers, body }, body)
  return etag
}

describe("front door", () => {
  it.effect("writes a kept representation at once, with the caller's RateLimit, and records it", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const door = makeFrontDoor(gatekeeper, yield* Telemetry)
      const etag = keep(gatekeeper, "/v1/stats", "{\"kept\":true}")

      const get = exchange("/v1/stats")
      assert.isTrue(door(...get.args))
      assert.strictEqual(get.written.status, 200)
      assert.deepStrictEqual(get.written.body, new TextEncoder().encode("{\"kept\":true}"))
      assert.include(get.written.headers, { etag, "cache-control": CACHE_POLICY, ratelimit: "\"default\";r=99;t=1" })

      const head = exchange("/v1/stats", {}, "HEAD")
      assert.isTrue(door(...head.args))
      assert.strictEqual(head.written.status, 200)
      assert.isUndefined(head.written.body)
      assert.isTrue(head.written.ended)

      const exposition = parsePrometheus((yield* Telemetry).render())
      assert.strictEqual(sampleValue(exposition, "equides_http_requests_total", { route: "/v1/stats", status: "200" }), 2)
      assert.strictEqual(sampleValue(exposition, "equides_response_cache_hits_total", {}), 2)
    }).pipe(Effect.provide(environment)))

  it.effect("answers a matching If-None-Match with a 304 carrying the validators, for 1 unit", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const door = makeFrontDoor(gatekeeper, yield* Telemetry)
      const etag = gatekeeper.admit("GET", "/v1/meta", {}, "198.51.100.1").etag ?? ""
      const revalidation = exchange("/v1/meta", { "if-none-match": `W/${etag}` })
      assert.isTrue(door(...revalidation.args))
      assert.strictEqual(revalidation.written.status, 304)
      assert.isUndefined(revalidation.written.body)
      assert.include(revalidation.written.headers, {
        etag,
        vary: "Accept-Encoding",
        "cache-control": CACHE_POLICY,
        "x-content-type-options": "nosniff",
        ratelimit: "\"default\";r=99;t=1"
      })
    }).pipe(Effect.provide(environment)))

  it.effect("hands anything that must execute to the application, admitted once", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const door = makeFrontDoor(gatekeeper, yield* Telemetry)
      const list = exchange("/v1/equides?vue=complet&limite=5000")
      assert.isFalse(door(...list.args))
      assert.isUndefined(list.written.status)
      const admitted = admittedAt(list.request)
      assert.strictEqual(admitted?.verdict, "route")
      assert.strictEqual(admitted?.label, "/v1/equides")
      // Charged here (5 units for 5000 full records), and not again: the pipeline reuses `admitted`.
      assert.strictEqual(admitted?.quota?.remaining, 95)
      assert.strictEqual(gatekeeper.quota?.peek("203.0.113.9", admitted?.now ?? 0).remaining, 95)
    }).pipe(Effect.provide(environment)))

  it.effect("leaves requests with a body to the application, unadmitted", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const door = makeFrontDoor(gatekeeper, yield* Telemetry)
      keep(gatekeeper, "/v1/stats", "{}")
      for (const headers of [{ "content-length": "3" }, { "transfer-encoding": "chunked" }]) {
        const withBody = exchange("/v1/stats", headers)
        assert.isFalse(door(...withBody.args))
        assert.isUndefined(admittedAt(withBody.request))
      }
      assert.strictEqual(gatekeeper.quota?.peek("203.0.113.9", 0).remaining, 100)
    }).pipe(Effect.provide(environment)))
})

describe("front door turns", () => {
  /** A lane whose lookups each cost 0.6 ms on the test's clock, and turns drained by the test. */
  const slowLane = () => {
    let clock = 0
    const drains: Array<() => void> = []
    const turns = makeTurns(1, (drain) => drains.push(drain), () => clock)
    const lane: DirectLane = (_method, route, url) => {
      clock += 0.6
      if (url.includes("refused")) return undefined
      const body = new TextEncoder().encode(JSON.stringify({ route, url }))
      return { status: 200, headers: { "content-type": "application/json", "content-length": String(body.length) }, body }
    }
    return { turns, lane, drains }
  }

  it.effect("answers a probe's kept answer and a 304 read behind spent lookups before them, and the lookups in order", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const { turns, lane, drains } = slowLane()
      const door = makeFrontDoor(gatekeeper, yield* Telemetry, lane, turns)
      keep(gatekeeper, "/healthz", "{\"statut\":\"ok\"}")
      const etag = gatekeeper.admit("GET", "/v1/meta", {}, "198.51.100.1").etag ?? ""

      const lookups = ["a", "b", "c", "d"].map((id) => exchange(`/v1/equides/${id}`))
      for (const lookup of lookups) assert.isTrue(door(...lookup.args))
      const probe = exchange("/healthz")
      const revalidation = exchange("/v1/meta", { "if-none-match": etag })
      assert.isTrue(door(...probe.args))
      assert.isTrue(door(...revalidation.args))

      // The first two spent the turn's 1 ms; the probe and the 304 did not wait for the others.
      assert.deepStrictEqual(lookups.map((lookup) => lookup.written.status), [200, 200, undefined, undefined])
      assert.strictEqual(probe.written.status, 200)
      assert.strictEqual(revalidation.written.status, 304)

      drains.shift()!()
      assert.deepStrictEqual(lookups.map((lookup) => lookup.written.status), [200, 200, 200, 200])
      assert.deepStrictEqual(
        lookups.map((lookup) => JSON.parse(new TextDecoder().decode(lookup.written.body as Uint8Array)).url),
        ["/v1/equides/a", "/v1/equides/b", "/v1/equides/c", "/v1/equides/d"]
      )
    }).pipe(Effect.provide(environment)))

  it.effect("hands a lookup the lane refuses to the application when its turn comes, admitted once", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const { turns, lane, drains } = slowLane()
      const door = makeFrontDoor(gatekeeper, yield* Telemetry, lane, turns)
      assert.isTrue(door(...exchange("/v1/equides/a").args))
      assert.isTrue(door(...exchange("/v1/equides/b").args))
      const refused = exchange("/v1/equides/refused")
      assert.isTrue(door(...refused.args))
      assert.isFalse(refused.written.handedOn)
      assert.isUndefined(admittedAt(refused.request))

      drains.shift()!()
      assert.isTrue(refused.written.handedOn)
      assert.strictEqual(admittedAt(refused.request)?.verdict, "route")
      assert.isUndefined(refused.written.status)
    }).pipe(Effect.provide(environment)))

  it.effect("skips a waiting lookup whose client has left", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const { turns, lane, drains } = slowLane()
      const door = makeFrontDoor(gatekeeper, yield* Telemetry, lane, turns)
      door(...exchange("/v1/equides/a").args)
      door(...exchange("/v1/equides/b").args)
      const left = exchange("/v1/equides/c")
      door(...left.args)
      left.response.destroyed = true
      drains.shift()!()
      assert.isFalse(left.written.ended)
      assert.isFalse(left.written.handedOn)
    }).pipe(Effect.provide(environment)))
})

describe("front door defects", () => {
  /** A lane that throws for `/v1/equides/boom` (a byte writer's bug) and answers every other id. */
  const throwingLane: DirectLane = (_method, _route, url) => {
    if (url.includes("boom")) throw new Error("writer bug")
    const body = new TextEncoder().encode("{\"ok\":true}")
    return { status: 200, headers: { "content-type": "application/json", "content-length": String(body.length) }, body }
  }

  /** RFC 9457's `about:blank` problem the pipeline answers a defect with (spec: errors). */
  const INTERNAL_ERROR = { type: "about:blank", title: "Internal Server Error", status: 500, detail: "Erreur interne du service." }

  const parsed = (written: Written): unknown => JSON.parse(new TextDecoder().decode(written.body as Uint8Array))

  it.effect("answers a throwing lane with the 500 problem, logs it, records it, and answers the next lookup", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const defects: Array<unknown> = []
      const report = (defect: unknown) => void defects.push(defect)
      // A clock that stands still: the lane's share of the turn never runs out here, so the lookup after
      // the throw is answered in this turn however long the throw's logging took (on a loaded machine it
      // took more than the share, and the next lookup waited for the next turn).
      const turns = makeTurns(LANE_BUDGET_MS, setImmediate, () => 0, report)
      const door = makeFrontDoor(gatekeeper, yield* Telemetry, throwingLane, turns, report)
      const failed = exchange("/v1/equides/boom")
      assert.isTrue(door(...failed.args))
      assert.strictEqual(failed.written.status, 500)
      assert.deepStrictEqual(parsed(failed.written), INTERNAL_ERROR)
      assert.include(failed.written.headers, {
        "content-type": "application/problem+json",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff"
      })
      assert.notProperty(failed.written.headers, "etag")
      assert.deepStrictEqual(defects.map((defect) => (defect as Error).message), ["writer bug"])

      const healthy = exchange("/v1/equides/a")
      assert.isTrue(door(...healthy.args))
      assert.strictEqual(healthy.written.status, 200)
      assert.deepStrictEqual(parsed(healthy.written), { ok: true })

      const exposition = parsePrometheus((yield* Telemetry).render())
      assert.strictEqual(sampleValue(exposition, "equides_http_requests_total", { route: "/v1/equides/:id", status: "500" }), 1)
    }).pipe(Effect.provide(environment)))

  it.effect("answers a throw of admission itself with the 500 problem", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const defects: Array<unknown> = []
      const door = makeFrontDoor(Object.assign(Object.create(gatekeeper) as Gatekeeper, {
        admit: () => {
          throw new Error("admission bug")
        }
      }), yield* Telemetry, undefined, undefined, (defect) => defects.push(defect))
      const failed = exchange("/v1/meta")
      assert.isTrue(door(...failed.args))
      assert.strictEqual(failed.written.status, 500)
      assert.deepStrictEqual(parsed(failed.written), INTERNAL_ERROR)
      assert.include(failed.written.headers, { "content-type": "application/problem+json", "cache-control": "no-store" })
      assert.strictEqual(defects.length, 1)
    }).pipe(Effect.provide(environment)))

  it.effect("destroys a response whose head was already written when the throw came", () =>
    Effect.gen(function*() {
      const gatekeeper = yield* Admission
      const defects: Array<unknown> = []
      const door = makeFrontDoor(gatekeeper, yield* Telemetry, throwingLane, undefined, (defect) => defects.push(defect))
      const failed = exchange("/v1/equides/a")
      let destroyed = false
      const response = failed.response as typeof failed.response & { headersSent: boolean; destroy: () => void }
      response.headersSent = false
      response.writeHead = () => {
        response.headersSent = true
      }
      response.end = () => {
        throw new Error("socket bug")
      }
      response.destroy = () => {
        destroyed = true
      }
      assert.isTrue(door(...failed.args))
      assert.isTrue(destroyed)
      assert.strictEqual(defects.length, 1)
    }).pipe(Effect.provide(environment)))

  it.effect("on a real server, answers a throwing lookup 500 and the next request on the same connection", () =>
    Effect.gen(function*() {
      const defects: Array<unknown> = []
      const door = makeFrontDoor(yield* Admission, yield* Telemetry, throwingLane, undefined, (defect) => defects.push(defect))
      const server = makeNodeServer(door)
      yield* Effect.acquireRelease(
        Effect.callback<void>((resume) => {
          server.listen(0, "127.0.0.1", () => resume(Effect.void))
        }),
        () => Effect.callback<void>((resume) => {
          server.close(() => resume(Effect.void))
        })
      )
      const { port } = server.address() as AddressInfo
      // Two requests pipelined on one connection: the second is answered after the first's 500.
      const wire = yield* rawSocket(
        `http://127.0.0.1:${port}`,
        "GET /v1/equides/boom HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/equides/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      )
      const statuses = [...wire.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1])
      assert.deepStrictEqual(statuses, ["500", "200"])
      assert.include(wire, "\"title\":\"Internal Server Error\"")
      assert.isTrue(wire.endsWith("{\"ok\":true}"))
      assert.strictEqual(defects.length, 1)
    }).pipe(Effect.scoped, Effect.provide(environment)))
})
