/** The request pipeline: problems for what no handler answers, JSON content type. */
import { assert, describe, it } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import { Effect, Layer, Logger } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { Admission } from "./admission.ts"
import { settingsLayer } from "./config.ts"
import { PipelineLive, ROUTER_CONFIG } from "./pipeline.ts"
import { Telemetry } from "./telemetry.ts"
import { FAMILY } from "./testing.ts"

const logged: Array<string> = []

const routes = Layer.mergeAll(
  HttpRouter.add("GET", "/boom", Effect.die(new Error("boom"))),
  HttpRouter.add("GET", "/json", Effect.succeed(HttpServerResponse.jsonUnsafe({ a: 1 }))),
  PipelineLive
).pipe(
  Layer.provide(Admission.layer),
  Layer.provide([settingsLayer({ rateLimitRate: 0, metrics: undefined }), Telemetry.layer, fromRecords(FAMILY)]),
  // The defect's log line is kept here (and checked), not printed: merged, so requests run with it.
  Layer.provideMerge(Logger.layer([Logger.make(({ logLevel, message }) => logged.push(`${logLevel} ${String(message)}`))]))
)

const fetchWith = (path: string, init?: RequestInit) =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      HttpRouter.toWebHandler(Layer.provide(routes, HttpServer.layerServices), { disableLogger: true, routerConfig: ROUTER_CONFIG })
    ),
    ({ handler }) =>
      Effect.promise(async () => {
        const response = await handler(new Request(`http://localhost${path}`, init))
        return {
          status: response.status,
          type: response.headers.get("content-type"),
          cacheControl: response.headers.get("cache-control"),
          etag: response.headers.get("etag"),
          body: await response.text()
        }
      }),
    ({ dispose }) => Effect.promise(dispose)
  )

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
})
