/**
 * Where the work whose cost grows with the data or the depth runs (`WORKERS`): the queries that
 * scan the data, the pedigree walks, the explorer's pages (`work.ts`). In the server's own thread
 * (`0`), or on a pool of worker threads sharing the Dataset's memory, so that a heavy query never
 * holds the event loop, the probes, the 304s and the kept responses, and every core serves. Either
 * way the body is made by the same function (`perform`): the same bytes.
 *
 * A pooled execution is asynchronous: it holds its concurrency slot until the worker answers, so
 * `MAX_CONCURRENCY` counts real executions and the deadline sees real waiting (503 past it). It
 * waits in the pool's fair queue for its requester (`requester.ts`: the caller's turn, the lane of
 * its route's cost), read from the fiber.
 *
 * The workers' answers resume their requests in the server's thread by turns of its event loop
 * (`node/turns.ts`, `REPLY_BUDGET_MS` of each): a worker's reply resumes its fiber, which writes
 * the response (about 0.1–0.25 ms of this thread), and Node reads a worker's messages in a loop
 * that goes on while more arrive. A worker answering cheap executions replies before the last
 * response is written, so that loop held the thread for a whole burst, 50 responses, 12 ms,
 * without reading a socket: the probe p99 under 50 connections of `/v1/stats/reproducteurs` was
 * 9.7–11.1 ms. Past the budget a reply waits for the next turn, after Node has read what arrived
 * (a probe, a 304, a kept response is answered as it is read); the workers are handed their next
 * execution at once, as before.
 */
import { Dataset, type DatasetData, type Execution, InvalidParameter, isBounded, prepareQueries } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Settings } from "../config.ts"
import type { PageExecution, Rendered } from "../explorer/pages.ts"
import { reportDefectWith } from "../node/defects.ts"
import { makeTurns, type Turns } from "../node/turns.ts"
import { type Registry, Telemetry } from "../telemetry.ts"
import { QueryPool, type WorkerSpec } from "./QueryPool.ts"
import { CurrentRequester, HEAVY_EXECUTION_MS } from "./requester.ts"
import { familyOf, isPage, type Outcome, perform, type Work, warmUp } from "./work.ts"

export interface ExecutorShape {
  /** The JSON body of an execution, or the parameter it refuses. */
  readonly answer: (execution: Execution) => Effect.Effect<Uint8Array, InvalidParameter>
  /** An explorer page, rendered with its status. */
  readonly render: (page: PageExecution) => Effect.Effect<Rendered>
  /**
   * Done once an execution starts at once: the query workers have warmed up (at once in the
   * server's own thread). The listener opens after it (`server.ts`), so that whatever the server's
   * thread builds before listening is built while the workers warm up.
   */
  readonly ready: Effect.Effect<void>
}

/** Where a work's outcome comes from: the calling thread, or a worker. */
type Run = (work: Work) => Effect.Effect<Outcome>

/** Work in the calling thread, what it builds on first use built now (before `/readyz` says ready); its time recorded (not a rehearsal's). */
const inline = (data: DatasetData, registry: Registry): Run => {
  prepareQueries(data)
  return (work) =>
    Effect.withFiber((fiber) => {
      const started = performance.now()
      const outcome = perform(data, work)
      if (!fiber.getRef(CurrentRequester).rehearsal) registry.recordExecution(familyOf(work), (performance.now() - started) / 1000)
      return Effect.succeed(outcome)
    })
}

/** Every work in the calling thread (`WORKERS=0`): every family run once first, as a query worker does. */
const warmedInline = (data: DatasetData, registry: Registry): Run => {
  const run = inline(data, registry)
  warmUp(data, perform)
  return run
}

/**
 * A full collection of the server's thread before it serves, when the process allows it
 * (`processSettings.ts`), as each query worker does after its warm-up: what the start left (the
 * load's and the share's garbage; with `WORKERS=0` the warm-up's passes over the registry) would
 * stay resident until a full collection, which an idle server may not reach for long.
 */
const collectStart = (): void => globalThis.gc?.()

const executorOf = (run: Run, ready: Effect.Effect<void> = Effect.void): ExecutorShape => ({
  answer: (execution) => Effect.flatMap(run(execution), answered),
  // A page renders its refusals as error pages: only a defect fails it.
  render: (page) => Effect.flatMap(run(page), (outcome) => (outcome.kind === "body" ? Effect.succeed(outcome) : Effect.orDie(settled(outcome)))),
  ready
})

export class Executor extends Context.Service<Executor, ExecutorShape>()("@equides/server/Executor") {
  /** Every execution in the calling fiber, synchronously. */
  static readonly inline: Layer.Layer<Executor, never, Dataset | Telemetry> = Layer.effect(
    Executor,
    Effect.map(Effect.all([Dataset, Telemetry]), ([data, registry]) => executorOf(warmedInline(data, registry)))
  )

  /**
   * A pool of `size` workers (`spec`: the module they run; tests run slow or crashing ones; `replies`:
   * the turns their answers resume their requests in, the server thread's by default).
   */
  static readonly pool = (size: number, spec?: WorkerSpec, replies?: Turns): Layer.Layer<Executor, never, Dataset | Telemetry> =>
    Layer.effect(Executor, Effect.flatMap(prepare(size, spec), (pool) => pooled(pool, replies)))

  /**
   * `WORKERS` from the settings: inline for 0 (or no data), else a pool of that many workers, the
   * threads `QueryThreads` started before the load when there are.
   */
  static readonly layer: Layer.Layer<Executor, never, Dataset | Settings | Telemetry> = Layer.effect(
    Executor,
    Effect.gen(function*() {
      const { workers } = yield* Settings
      const data = yield* Dataset
      const started = yield* Effect.serviceOption(QueryThreads)
      if (workers === 0 || data.size === 0) {
        // No data to share (an empty file): threads started before the load would idle until shutdown.
        if (Option.isSome(started)) yield* Effect.promise(() => started.value.close())
        const executor = executorOf(warmedInline(data, yield* Telemetry))
        collectStart()
        return executor
      }
      return yield* pooled(Option.isSome(started) ? started.value : yield* prepare(workers))
    })
  )
}

/**
 * Query threads started at once, before the Dataset is loaded (`server.ts`), so that each loads its
 * code (about a second) while the main thread reads the data; the `Executor` hands them the Dataset.
 */
export class QueryThreads extends Context.Service<QueryThreads, QueryPool>()("@equides/server/QueryThreads") {
  static readonly layer = (size: number): Layer.Layer<QueryThreads> => Layer.effect(QueryThreads, prepare(size))
}

const prepare = (size: number, spec?: WorkerSpec) =>
  Effect.acquireRelease(Effect.sync(() => QueryPool.prepare(size, spec)), (pool) => Effect.promise(() => pool.close()))

/** The share of each turn of the server thread's event loop that the workers' answers resume requests in. */
const REPLY_BUDGET_MS = 1

/**
 * The executor over a pool's threads, the Dataset handed to them (shared first if it is not); it is
 * `ready` once they have warmed up. Meanwhile this thread builds what it needs for the bounded works,
 * collects, and the server builds the rest of itself: 0.2–0.3 s of the start at 4.45 M records.
 * `replies`: where the answers resume their requests (by default turns of `REPLY_BUDGET_MS`).
 */
const pooled = (pool: QueryPool, replies?: Turns) =>
  Effect.gen(function*() {
    const turns = replies ?? makeTurns(REPLY_BUDGET_MS, setImmediate, () => performance.now(), reportDefectWith(yield* Effect.context<never>()))
    const data = yield* Dataset
    const attached = pool.attach(shareDataset(data).share)
    const registry = yield* Telemetry
    const here = inline(data, registry)
    collectStart()
    registry.gauge("equides_query_workers", "Query worker threads.", () => pool.size)
    registry.gauge("equides_query_workers_busy", "Query worker threads executing a query.", () => pool.busy)
    registry.gauge(
      "equides_query_workers_heavy",
      `Query worker threads executing a heavy query (its route declares ${HEAVY_EXECUTION_MS} ms or more): at most all threads but one.`,
      () => pool.heavyBusy
    )
    registry.gauge("equides_query_queue", "Executions waiting for a query worker.", () => pool.queued)
    registry.counter(
      "equides_query_worker_restarts_total",
      "Query worker threads started to replace one that exited (after a growing delay when it died before it was ready).",
      () => pool.restarts
    )
    return Executor.of(executorOf((work) =>
      !isPage(work) && isBounded(work) ? here(work) : Effect.withFiber((fiber) => {
        const requester = fiber.getRef(CurrentRequester)
        return Effect.callback<Outcome>((resume) => {
          const ticket = pool.submit(work, (outcome, ms) => {
            if (ms !== undefined && !requester.rehearsal) registry.recordExecution(familyOf(work), ms / 1000)
            turns.run(() => resume(Effect.succeed(outcome)))
          }, requester)
          return Effect.sync(() => pool.cancel(ticket))
        })
      }), Effect.promise(() => attached)))
  })

/** An execution's body, or the parameter it refuses. */
const answered = (outcome: Outcome): Effect.Effect<Uint8Array, InvalidParameter> =>
  outcome.kind === "body" ? Effect.succeed(outcome.body) : settled(outcome)

/** A refusal or a defect as the effect's failure. */
const settled = (outcome: Exclude<Outcome, { readonly kind: "body" }>): Effect.Effect<never, InvalidParameter> =>
  outcome.kind === "refused" ? Effect.fail(new InvalidParameter(outcome.refusal)) : Effect.die(new Error(outcome.message))
