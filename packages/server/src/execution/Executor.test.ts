/**
 * Where queries run: the pool of worker threads and the server's own thread answer every execution
 * with the bytes HttpApi would write for the query's value (and refuse the same parameters the same
 * way); with slow workers,
 * what needs no execution (probes, 304s) is answered while the queries still run, and requests that
 * cannot start within their deadline get a 503 with `Retry-After`.
 */
import { assert, describe, layer } from "@effect/vitest"
import {
  Dataset,
  type DatasetData,
  type Execution,
  fromRecords,
  InvalidParameter,
  type ListQuery,
  PageEquides,
  Repartition,
  type RepartitionQuery,
  REPARTITION_DIMENSIONS,
  Reproducteurs,
  type ReproducteursQuery,
  type SearchQuery,
  StatistiquesDescendance,
  statistiquesDescendance,
  Suggestions,
  TRIS
} from "@equides/domain"
import { listAnswer, repartitionAnswer, reproducteursAnswer, suggestAnswer } from "@equides/domain/answers"
import { filterInputArbitrary, INDEX_CODES, syntheticRecords } from "@equides/domain/testing"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { parsePrometheus, sampleValue } from "../testing/prometheus.ts"
import { call, testServer, TRUSTED_LOOPBACK } from "../testing/server.ts"
import { eventually, realSleep } from "../testing/time.ts"
import type { Turns } from "../node/turns.ts"
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

/**
 * What HttpApi would write for an execution, made here without `answer` (its byte writers and
 * encoders): the query's value encoded by the endpoint's success schema, as JSON.
 */
const referenceOf = (data: DatasetData, execution: Execution) => {
  const encoded: Result.Result<unknown, InvalidParameter> = execution.endpoint === "list"
    ? Result.map(listAnswer(data, execution.query, execution.url), Schema.encodeSync(PageEquides))
    : execution.endpoint === "suggest"
    ? Result.map(suggestAnswer(data, execution.query), Schema.encodeSync(Suggestions))
    : execution.endpoint === "repartition"
    ? Result.map(repartitionAnswer(data, execution.query), Schema.encodeSync(Repartition))
    : execution.endpoint === "descendanceStatistiques"
    ? Result.succeed(Schema.encodeSync(StatistiquesDescendance)(statistiquesDescendance(data, execution.row)))
    : execution.endpoint === "reproducteurs"
    ? Result.map(reproducteursAnswer(data, execution.query, execution.url), Schema.encodeSync(Reproducteurs))
    : Result.fail(new InvalidParameter({ parametre: "endpoint", detail: `${execution.endpoint}: not drawn by this test` }))
  return Result.isSuccess(encoded)
    ? { body: JSON.stringify(encoded.success) }
    : { refused: { parametre: encoded.failure.parametre, detail: encoded.failure.detail, indice: encoded.failure.indice } }
}

describe("Executor", () => {
  const both = Layer.mergeAll(
    Layer.effect(Inline, executor).pipe(Layer.provide(Executor.inline)),
    Layer.effect(Pooled, executor).pipe(Layer.provide(Executor.pool(2)))
  ).pipe(Layer.provideMerge(Layer.mergeAll(dataset, Telemetry.layer)))

  layer(both, { timeout: 60_000 })((it) => {
    it.effect("a pool of workers and the server's thread answer byte for byte what the schemas write for the query's value", () =>
      Effect.gen(function*() {
        const inline = yield* Inline
        const pooled = yield* Pooled
        const data = yield* Dataset
        const executions = fc.sample(executionArbitrary, { numRuns: 300, seed: 42 })
        let refused = 0
        for (const execution of executions) {
          const expected = referenceOf(data, execution)
          const [a, b] = yield* Effect.all([outcomeOf(inline, execution), outcomeOf(pooled, execution)], { concurrency: 2 })
          assert.deepStrictEqual(a, expected, JSON.stringify(execution))
          assert.deepStrictEqual(b, expected, JSON.stringify(execution))
          if ("refused" in expected) refused++
        }
        // The sample covers both outcomes.
        assert.isAbove(refused, 0)
        assert.isBelow(refused, executions.length)
      }))
  })
})

describe("a worker that dies", () => {
  const crashing = Executor.pool(1, { url: new URL("./crashingQueryWorker.fixture.ts", import.meta.url) })
  layer(crashing.pipe(Layer.provideMerge(Layer.mergeAll(dataset, Telemetry.layer))), { timeout: 30_000 })((it) => {
    it.effect("fails the execution it held as a defect and is replaced, counted as a restart", () =>
      Effect.gen(function*() {
        const executor = yield* Executor
        const restarts = () => sampleValue(parsePrometheus(registry.render()), "equides_query_worker_restarts_total", {})
        const registry = yield* Telemetry
        assert.strictEqual(restarts(), 0)
        const suggest = (q: string): Execution => ({ endpoint: "suggest", query: { q, limite: 5 } as SearchQuery })
        const crashed = yield* Effect.exit(executor.answer(suggest("crash")))
        assert.isTrue(Exit.hasDies(crashed), String(crashed))
        const after = yield* executor.answer(suggest(RECORDS[0].nom ?? "a"))
        assert.include(new TextDecoder().decode(after), "resultats")
        assert.strictEqual(restarts(), 1)
      }))
  })
})

describe("the workers' answers", () => {
  // Turns that hold every task until the test runs it: the server thread's next turn, by hand.
  const held: Array<() => void> = []
  const holding: Turns = { run: (task) => void held.push(task), waiting: () => held.length }
  layer(Executor.pool(1, undefined, holding).pipe(Layer.provideMerge(Layer.mergeAll(dataset, Telemetry.layer))), { timeout: 30_000 })((it) => {
    it.effect("resume their requests in the server thread's turns, not in the worker's message", () =>
      Effect.gen(function*() {
        const executor = yield* Executor
        const asked = yield* Effect.forkChild(executor.answer({ endpoint: "suggest", query: { q: RECORDS[0].nom ?? "a", limite: 5 } as SearchQuery }))
        // The worker has answered: its answer waits for a turn, and the request with it.
        yield* eventually(() => held.length === 1)
        yield* realSleep(20)
        assert.isUndefined(asked.pollUnsafe(), "the request was resumed outside the turns")
        held.shift()!()
        assert.include(new TextDecoder().decode(yield* Fiber.join(asked)), "resultats")
        assert.strictEqual(held.length, 0)
      }))
  })
})

/**
 * `size` workers (one unless told) whose executions each wait for a permit the test grants
 * (`grant`): whatever is answered before, did not wait for a query, however slow the machine.
 */
const gatedPool = (size = 1) => {
  const permits = new Int32Array(new SharedArrayBuffer(4))
  const grant = (count: number) =>
    Effect.sync(() => {
      Atomics.add(permits, 0, count)
      Atomics.notify(permits, 0)
    })
  return { grant, layer: Executor.pool(size, { url: new URL("./gatedQueryWorker.fixture.ts", import.meta.url), data: { permits } }) }
}

/** A gauge of the metrics registry, read now. */
const gaugeOf = (registry: Telemetry["Service"]) => (name: string) => sampleValue(parsePrometheus(registry.render()), name) ?? 0

describe("isolation", () => {
  const { grant, layer: pool } = gatedPool()
  const open = grant(1000)
  layer(testServer(fromRecords(FAMILY), { executor: pool, settings: { responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("probes, 304s and unfiltered pages are answered while heavy queries hold every worker", () =>
      Effect.gen(function*() {
        const gauge = gaugeOf(yield* Telemetry)
        const etag = (yield* call("/v1/meta")).headers["etag"]
        let listsAnswered = false
        const heavy = yield* Effect.forkChild(
          Effect.all([1, 2, 3].map((i) => call(`/v1/equides?sexe=Male&limite=${i}`)), { concurrency: "unbounded" }).pipe(
            Effect.tap(() => Effect.sync(() => (listsAnswered = true)))
          )
        )
        // The worker holds one list, the two others wait for it.
        yield* eventually(() => gauge("equides_query_workers_busy") === 1 && gauge("equides_query_queue") === 2)
        const probe = yield* call("/healthz")
        const notModified = yield* call("/v1/meta", { headers: { "if-none-match": etag ?? "" } })
        // A list without filters is a window of a sorted permutation: answered in the server's thread.
        const unfiltered = yield* call("/v1/equides?tri=-nom&limite=4")
        assert.strictEqual(probe.status, 200)
        assert.strictEqual(notModified.status, 304)
        assert.strictEqual(unfiltered.status, 200)
        assert.isFalse(listsAnswered, "the lists wait for their permits")
        assert.strictEqual(gauge("equides_query_workers_busy"), 1)
        yield* open
        const lists = yield* Fiber.join(heavy)
        assert.deepStrictEqual(lists.map((list) => list.status), [200, 200, 200])
      }).pipe(Effect.ensuring(open)))
  })
})

describe("overload", () => {
  // Deadlines on the TestClock, executions on permits: the outcome is exact, however slow the machine.
  const { grant, layer: pool } = gatedPool()
  const settings = { maxConcurrency: 1, requestTimeoutMs: 200, responseCacheBytes: 0 }
  layer(testServer(fromRecords(FAMILY), { executor: pool, settings }), { timeout: 30_000 })((it) => {
    it.effect("requests that cannot start within their deadline get a 503 with Retry-After", () =>
      Effect.gen(function*() {
        const gauge = gaugeOf(yield* Telemetry)
        const replies = yield* Effect.forkChild(Effect.all(
          Array.from({ length: 8 }, (_, i) => call(`/v1/equides?sexe=Femelle&offset=${i}`)),
          { concurrency: "unbounded" }
        ))
        // One holds the only slot and runs in the worker, seven wait for the slot.
        yield* eventually(() => gauge("equides_query_workers_busy") === 1 && gauge("equides_requests_queued") === 7)
        // The first query is let through: its request answers, and the next takes the slot and the worker.
        yield* grant(1)
        yield* eventually(() => gauge("equides_query_workers_busy") === 1 && gauge("equides_requests_queued") === 6)
        // Past the deadline: the run in the worker and the six waiters are answered 503 at once.
        yield* TestClock.adjust("250 millis")
        const statuses = (yield* Fiber.join(replies)).map((reply) => [reply.status, reply.headers["retry-after"]])
        assert.deepStrictEqual(statuses.filter(([status]) => status === 200).length, 1, JSON.stringify(statuses))
        assert.deepStrictEqual(statuses.filter(([status]) => status !== 200), Array(7).fill([503, "1"]), JSON.stringify(statuses))
      }).pipe(Effect.ensuring(grant(1000))))
  })
})

describe("fair share of the workers", () => {
  // Callers told apart by X-Forwarded-For from loopback; deadlines far off: only the permits decide.
  const settings = { responseCacheBytes: 0, trustedProxies: TRUSTED_LOOPBACK, requestTimeoutMs: 600_000 }
  const from = (caller: string) => ({ headers: { "x-forwarded-for": caller } })

  describe("one worker", () => {
    const { grant, layer: pool } = gatedPool()
    layer(testServer(fromRecords(FAMILY), { executor: pool, settings }), { timeout: 30_000, excludeTestServices: true })((it) => {
      it.effect("a caller's list runs before the rest of another caller's backlog", () =>
        Effect.gen(function*() {
          const gauge = gaugeOf(yield* Telemetry)
          let backlogAnswered = 0
          const backlog = yield* Effect.forkChild(Effect.all(
            [1, 2, 3].map((i) => call(`/v1/equides?sexe=Male&limite=${i}`, from("203.0.113.1")).pipe(Effect.tap(() => Effect.sync(() => backlogAnswered++)))),
            { concurrency: "unbounded" }
          ))
          yield* eventually(() => gauge("equides_query_workers_busy") === 1 && gauge("equides_query_queue") === 2)
          let listStatus: number | undefined
          const list = yield* Effect.forkChild(call("/v1/equides?sexe=Femelle", from("203.0.113.2")).pipe(Effect.tap((reply) => Effect.sync(() => (listStatus = reply.status)))))
          yield* eventually(() => gauge("equides_query_queue") === 3)
          // Three runs: the backlog's first (running) and second (waiting before the list came), then the list; the third still waits.
          yield* grant(3)
          yield* eventually(() => backlogAnswered + (listStatus === undefined ? 0 : 1) === 3 && gauge("equides_query_workers_busy") === 1)
          assert.strictEqual(listStatus, 200)
          assert.strictEqual(backlogAnswered, 2)
          yield* Fiber.join(list)
          yield* grant(1)
          assert.deepStrictEqual((yield* Fiber.join(backlog)).map((reply) => reply.status), [200, 200, 200])
        }).pipe(Effect.ensuring(grant(1000))))
    })
  })

  describe("two workers", () => {
    const { grant, layer: pool } = gatedPool(2)
    layer(testServer(fromRecords(FAMILY), { executor: pool, settings }), { timeout: 30_000, excludeTestServices: true })((it) => {
      it.effect("heavy routes hold one worker, and a list starts on the other at once", () =>
        Effect.gen(function*() {
          const gauge = gaugeOf(yield* Telemetry)
          // A breakdown declares 4 ms of CPU: heavy.
          const breakdowns = yield* Effect.forkChild(Effect.all(
            [1, 2, 3].map((i) => call(`/v1/stats/repartition?dimension=race&limite=${i}`, from("203.0.113.1"))),
            { concurrency: "unbounded" }
          ))
          yield* eventually(() => gauge("equides_query_workers_busy") === 1 && gauge("equides_query_queue") === 2)
          assert.strictEqual(gauge("equides_query_workers_heavy"), 1)
          // A filtered list declares 2 ms: light, it takes the free worker.
          const list = yield* Effect.forkChild(call("/v1/equides?sexe=Femelle", from("203.0.113.2")))
          yield* eventually(() => gauge("equides_query_workers_busy") === 2)
          assert.strictEqual(gauge("equides_query_workers_heavy"), 1)
          assert.strictEqual(gauge("equides_query_queue"), 2)
          yield* grant(4)
          assert.strictEqual((yield* Fiber.join(list)).status, 200)
          assert.deepStrictEqual((yield* Fiber.join(breakdowns)).map((reply) => reply.status), [200, 200, 200])
        }).pipe(Effect.ensuring(grant(1000))))
    })
  })
})
