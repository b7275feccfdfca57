/**
 * Where queries run: the pool of worker threads answers every execution with the very bytes the
 * server's own thread makes (and refuses the same parameters the same way); with slow workers,
 * what needs no execution (probes, 304s) is answered while the queries still run, and requests that
 * cannot start within their deadline get a 503 with `Retry-After`.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  type Execution,
  fromRecords,
  type ListQuery,
  type RepartitionQuery,
  REPARTITION_DIMENSIONS,
  type ReproducteursQuery,
  type SearchQuery,
  TRIS
} from "@equides/domain"
import { filterInputArbitrary, INDEX_CODES, syntheticRecords } from "@equides/domain/testing"
import { Context, Effect, Exit, Fiber, Layer } from "effect"
import fc from "fast-check"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { call, testServer } from "../testing/server.ts"
import { realSleep } from "../testing/time.ts"
import { Executor, type ExecutorShape } from "./Executor.ts"

const RECORDS = syntheticRecords(3000, 7)
const dataset = fromRecords(RECORDS)

/** Executions as the HttpApi hands them over: decoded, so within the schema's bounds and orders. */
const executionArbitrary: fc.Arbitrary<Execution> = fc.oneof(
  fc.record({
    filters: filterInputArbitrary(RECORDS),
    tri: fc.constantFrom(...TRIS),
    limite: fc.integer({ min: 1, max: 100 }),
    offset: fc.integer({ min: 0, max: 1200 }),
    vue: fc.constantFrom("resume" as const, "complet" as const)
  }).map(({ filters, ...page }): Execution => {
    const query = { ...filters, ...page } as ListQuery
    return { endpoint: "list", query, url: `/v1/equides?limite=${page.limite}&offset=${page.offset}` }
  }),
  fc.record({ q: fc.string({ maxLength: 12 }), limite: fc.integer({ min: 1, max: 100 }) })
    .map(({ q, limite }): Execution => ({ endpoint: "suggest", query: { q, limite } as SearchQuery })),
  fc.record({
    filters: filterInputArbitrary(RECORDS),
    dimension: fc.constantFrom(...REPARTITION_DIMENSIONS, "couleur"),
    limite: fc.integer({ min: 1, max: 500 })
  }).map(({ filters, dimension, limite }): Execution => ({
    endpoint: "repartition",
    query: { ...filters, dimension, limite } as RepartitionQuery
  })),
  fc.nat(RECORDS.length - 1).map((row): Execution => ({ endpoint: "descendanceStatistiques", row })),
  fc.record({
    code: fc.constantFrom(...INDEX_CODES, "iso", "XYZ"),
    sexe: fc.constantFrom("Male" as const, "Femelle" as const),
    annee_min: fc.option(fc.integer({ min: 1980, max: 2024 }), { nil: undefined }),
    produits_min: fc.integer({ min: 1, max: 3 }),
    limite: fc.integer({ min: 1, max: 100 })
  }).map((query): Execution => ({ endpoint: "reproducteurs", query: query as ReproducteursQuery, url: `/v1/stats/reproducteurs?code=${query.code}` }))
)

class Inline extends Context.Service<Inline, ExecutorShape>()("test/Inline") {}
class Pooled extends Context.Service<Pooled, ExecutorShape>()("test/Pooled") {}
const executor = Effect.gen(function*() {
  return yield* Executor
})

/** What an execution gives, comparable: the body's text, or the refusal's fields. */
const outcomeOf = (executor: ExecutorShape, execution: Execution) =>
  Effect.match(executor.answer(execution), {
    onSuccess: (body) => ({ body: new TextDecoder().decode(body) }),
    onFailure: ({ parametre, detail, indice }) => ({ refused: { parametre, detail, indice } })
  })

describe("Executor", () => {
  const both = Layer.mergeAll(
    Layer.effect(Inline, executor).pipe(Layer.provide(Executor.inline)),
    Layer.effect(Pooled, executor).pipe(Layer.provide(Executor.pool(2)))
  ).pipe(Layer.provide(Layer.mergeAll(dataset, Telemetry.layer)))

  layer(both, { timeout: 60_000 })((it) => {
    it.effect("a pool of workers answers byte for byte what the server's thread answers", () =>
      Effect.gen(function*() {
        const inline = yield* Inline
        const pooled = yield* Pooled
        const executions = fc.sample(executionArbitrary, { numRuns: 300, seed: 42 })
        let refused = 0
        for (const execution of executions) {
          const [a, b] = yield* Effect.all([outcomeOf(inline, execution), outcomeOf(pooled, execution)], { concurrency: 2 })
          assert.deepStrictEqual(b, a, JSON.stringify(execution))
          if ("refused" in a) refused++
        }
        // The sample covers both outcomes.
        assert.isAbove(refused, 0)
        assert.isBelow(refused, executions.length)
      }))
  })
})

describe("a worker that dies", () => {
  const crashing = Executor.pool(1, { url: new URL("./crashingQueryWorker.fixture.ts", import.meta.url) })
  layer(crashing.pipe(Layer.provide(Layer.mergeAll(dataset, Telemetry.layer))), { timeout: 30_000 })((it) => {
    it.effect("fails the execution it held as a defect and is replaced", () =>
      Effect.gen(function*() {
        const executor = yield* Executor
        const suggest = (q: string): Execution => ({ endpoint: "suggest", query: { q, limite: 5 } as SearchQuery })
        const crashed = yield* Effect.exit(executor.answer(suggest("crash")))
        assert.isTrue(Exit.hasDies(crashed), String(crashed))
        const after = yield* executor.answer(suggest(RECORDS[0].nom ?? "a"))
        assert.include(new TextDecoder().decode(after), "resultats")
      }))
  })
})

const slowPool = (delayMs: number, size = 1) =>
  Executor.pool(size, { url: new URL("./slowQueryWorker.fixture.ts", import.meta.url), data: { delayMs } })

/** `GET path`, answered at some point: its status, `Retry-After` and when it completed. */
const timed = (path: string, headers: Record<string, string> = {}) =>
  Effect.map(call(path, { headers }), (reply) => ({ status: reply.status, retryAfter: reply.headers["retry-after"], at: performance.now() }))

describe("isolation", () => {
  layer(testServer(fromRecords(FAMILY), { executor: slowPool(600), settings: { responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("probes, 304s and unfiltered pages are answered while heavy queries hold every worker", () =>
      Effect.gen(function*() {
        const etag = (yield* call("/v1/stats")).headers["etag"]
        const heavy = yield* Effect.forkChild(
          Effect.all([1, 2, 3].map((i) => timed(`/v1/equides?sexe=Male&limite=${i}`)), { concurrency: "unbounded" })
        )
        yield* realSleep(100)
        const probe = yield* timed("/healthz")
        const notModified = yield* timed("/v1/stats", { "if-none-match": etag })
        // A list without filters is a window of a sorted permutation: answered in the server's thread.
        const unfiltered = yield* timed("/v1/equides?tri=-nom&limite=4")
        const lists = yield* Fiber.join(heavy)
        assert.strictEqual(probe.status, 200)
        assert.strictEqual(notModified.status, 304)
        assert.deepStrictEqual(lists.map((list) => list.status), [200, 200, 200])
        const firstList = Math.min(...lists.map((list) => list.at))
        assert.isBelow(probe.at, firstList, "the probe did not wait for a query")
        assert.isBelow(notModified.at, firstList, "the 304 did not wait for a query")
        assert.strictEqual(unfiltered.status, 200)
        assert.isBelow(unfiltered.at, firstList, "the unfiltered page did not wait for a worker")
      }))
  })
})

describe("overload", () => {
  const settings = { maxConcurrency: 1, requestTimeoutMs: 200, responseCacheBytes: 0 }
  layer(testServer(fromRecords(FAMILY), { executor: slowPool(150), settings }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("requests that cannot start within their deadline get a 503 with Retry-After", () =>
      Effect.gen(function*() {
        const replies = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => timed(`/v1/equides?sexe=Femelle&offset=${i}`)),
          { concurrency: "unbounded" }
        )
        const statuses = replies.map((reply) => reply.status)
        assert.include(statuses, 200, statuses.join())
        assert.include(statuses, 503, statuses.join())
        for (const reply of replies.filter((reply) => reply.status === 503)) assert.strictEqual(reply.retryAfter, "1")
        assert.deepStrictEqual([...new Set(statuses)].sort(), [200, 503])
      }))
  })
})
