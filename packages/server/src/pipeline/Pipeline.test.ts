/**
 * The request pipeline on its own (a web handler: no Node server, so no front door): problems for
 * what no handler answers, JSON content type, and the answers that need nothing executed.
 */
import { assert, describe, it } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { Admission } from "../admission/Gatekeeper.ts"
import { Release } from "../release.ts"
import { settingsLayer } from "../config.ts"
import { ROUTER_CONFIG } from "../admission/routes.ts"
import { PipelineLive } from "./Pipeline.ts"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"

const logged: Array<string> = []
let counted = 0

const routes = Layer.mergeAll(
  HttpRouter.add("GET", "/boom", Effect.die(new Error("boom"))),
  HttpRouter.add("GET", "/json", Effect.succeed(HttpServerResponse.jsonUnsafe({ a: 1 }))),
  HttpRouter.add("GET", "/counted", Effect.sync(() => HttpServerResponse.jsonUnsafe({ runs: ++counted }))),
  PipelineLive
).pipe(
  Layer.provide(Admission.layer),
  Layer.provide([settingsLayer({ rateLimitRate: 0, metrics: undefined }), Telemetry.layer, fromRecords(FAMILY), Release.layer]),
  // The defect's log line is kept here (and checked), not printed: merged, so requests run with it.
  Layer.provideMerge(Logger.layer([Logger.make(({ logLevel, message }) => logged.push(`${logLevel} ${String(message)}`))]))
)

/** The requests, in order, through one instance of the application (one cache, one quota). */
const fetchAll = (requests: ReadonlyArray<readonly [path: string, init?: RequestInit | undefined]>) =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      HttpRouter.toWebHandler(Layer.provide(routes, HttpServer.layerServices), { disableLogger: true, routerConfig: ROUTER_CONFIG })
    ),
    ({ handler }) =>
      Effect.promise(async () => {
        const replies = []
        for (const [path, init] of requests) {
          const response = await handler(new Request(`http://localhost${path}`, init))
          replies.push({
            status: response.status,
            type: response.headers.get("content-type"),
            cacheControl: response.headers.get("cache-control"),
            etag: response.headers.get("etag"),
            body: await response.text()
          })
        }
        return replies
      }),
    ({ dispose }) => Effect.promise(dispose)
  )

const fetchWith = (path: string, init?: RequestInit) => Effect.map(fetchAll([[path, init]]), ([reply]) => reply)

describe("pipeline", () => {
  it.effect("a defect is a 500 problem, not an empty body", () =>
    Effect.gen(function*() {
      const reply = yield* fetchWith("/boom")
      assert.strictEqual(reply.status, 500)
      assert.strictEqual(reply.type, "application/problem+json")
      assert.include(JSON.parse(reply.body), { status: 500, type: "about:blank" })
      // A defect is not a representation: never stored by a cache.
      assert.strictEqual(reply.cacheControl, "no-store")
      assert.isNull(reply.etag)
      assert.deepStrictEqual(logged, ["Error Erreur interne"])
    }))

  it.effect("JSON is served as application/json; charset=utf-8", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* fetchWith("/json")).type, "application/json; charset=utf-8")
    }))

  it.effect("paths are case-sensitive", () =>
    Effect.gen(function*() {
      const reply = yield* fetchWith("/JSON")
      assert.strictEqual(reply.status, 404)
      assert.strictEqual(reply.type, "application/problem+json")
    }))

  it.effect("without a front door, a URI asked for again is kept and then comes from the cache, and a matching If-None-Match is a 304, nothing executed", () =>
    Effect.gen(function*() {
      const [first, again, kept] = yield* fetchAll([["/counted"], ["/counted"], ["/counted"]])
      assert.strictEqual(first.status, 200)
      // Executed again (the counter shows it), then answered with the bytes kept from that run.
      assert.strictEqual(again.body, "{\"runs\":2}")
      assert.strictEqual(kept.body, again.body)
      assert.strictEqual(again.etag, first.etag)
      assert.strictEqual(kept.etag, first.etag)
      const [, revalidated] = yield* fetchAll([["/counted"], ["/counted", { headers: { "if-none-match": first.etag ?? "" } }]])
      assert.strictEqual(revalidated.status, 304)
      assert.strictEqual(revalidated.etag, first.etag)
      // A URI is kept from its second answer on: the first instance executed twice, the third
      // request and the second instance's revalidation nothing.
      assert.strictEqual(counted, 3)
    }))
})
