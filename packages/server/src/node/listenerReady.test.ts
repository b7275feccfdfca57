/**
 * The public listener opens only once the `Executor` is ready (the query workers warmed up), so that
 * the server's thread builds the rest of the server while they warm up, and nothing is answered
 * before they have (`node/server.ts` `publicListener`).
 */
import { assert, describe, it } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { Executor } from "../execution/Executor.ts"
import { FAMILY } from "../testing/family.ts"
import { call, testServer } from "../testing/server.ts"

describe("the public listener and the Executor's readiness", () => {
  it.effect("is built up to its listener, waits for the Executor's ready, then listens and answers", () =>
    Effect.gen(function*() {
      const awaited = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      // The inline executor, ready when the test says so; it tells when the listener waits for it.
      const gated = Layer.effect(
        Executor,
        Effect.gen(function*() {
          const inline = yield* Executor
          return { ...inline, ready: Effect.andThen(Deferred.succeed(awaited, undefined), Deferred.await(gate)) }
        })
      ).pipe(Layer.provide(Executor.inline))
      const scope = yield* Scope.make()
      const building = yield* Effect.forkChild(Layer.buildWithScope(testServer(fromRecords(FAMILY), { executor: gated }), scope))
      yield* Deferred.await(awaited)
      assert.isUndefined(building.pollUnsafe(), "the server was built before its Executor was ready")
      yield* Deferred.succeed(gate, undefined)
      const context = yield* Fiber.join(building)
      const reply = yield* Effect.provide(call("/healthz"), context)
      assert.strictEqual(reply.status, 200)
      yield* Scope.close(scope, Exit.void)
    }))
})
