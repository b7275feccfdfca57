/**
 * Where the queries that scan the data run (`WORKERS`): in the server's own thread (`0`), or on a
 * pool of worker threads sharing the Dataset's memory, so that a heavy query never holds the event
 * loop, the probes, the 304s and the kept responses, and every core serves. Either way the body is
 * made by the same function (`answer` of `@equides/domain/answers`): the same bytes.
 *
 * A pooled execution is asynchronous: it holds its concurrency slot until the worker answers, so
 * `MAX_CONCURRENCY` counts real executions and the deadline sees real waiting (503 past it).
 */
import { answer, Dataset, type DatasetData, type Execution, InvalidParameter, isBounded, prepareQueries } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import { Context, Effect, Layer, Option, Result } from "effect"
import { Settings } from "../config.ts"
import { Telemetry } from "../telemetry.ts"
import { logColumnsBuilds } from "./columnsLog.ts"
import { type Outcome, QueryPool, type WorkerSpec } from "./QueryPool.ts"

export interface ExecutorShape {
  /** The JSON body of an execution, or the parameter it refuses. */
  readonly answer: (execution: Execution) => Effect.Effect<Uint8Array, InvalidParameter>
}

/** Executions in the calling thread, what they build on first use built now (before `/readyz` says ready). */
const inline = (data: DatasetData) => {
  prepareQueries(data)
  return (execution: Execution): Effect.Effect<Uint8Array, InvalidParameter> => run(data, execution)
}

const run = (data: DatasetData, execution: Execution): Effect.Effect<Uint8Array, InvalidParameter> => {
  const outcome = answer(data, execution)
  return Effect.andThen(logColumnsBuilds, Result.isSuccess(outcome) ? Effect.succeed(outcome.success) : Effect.fail(outcome.failure))
}

export class Executor extends Context.Service<Executor, ExecutorShape>()("@equides/server/Executor") {
  /** Every execution in the calling fiber, synchronously. */
  static readonly inline: Layer.Layer<Executor, never, Dataset> = Layer.effect(
    Executor,
    Effect.map(Dataset, (data) => ({ answer: inline(data) }))
  )

  /** A pool of `size` workers (`spec`: the module they run; tests run slow or crashing ones). */
  static readonly pool = (size: number, spec?: WorkerSpec): Layer.Layer<Executor, never, Dataset | Telemetry> =>
    Layer.effect(Executor, Effect.flatMap(prepare(size, spec), pooled))

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
        return { answer: inline(data) }
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

/** The executor over a pool's threads, once they have the Dataset (shared first if it is not). */
const pooled = (pool: QueryPool) =>
  Effect.gen(function*() {
    const data = yield* Dataset
    yield* Effect.promise(() => pool.attach(shareDataset(data).share))
    const registry = yield* Telemetry
    registry.gauge("equides_query_workers", "Query worker threads.", () => pool.size)
    registry.gauge("equides_query_workers_busy", "Query worker threads executing a query.", () => pool.busy)
    registry.gauge("equides_query_queue", "Executions waiting for a query worker.", () => pool.queued)
    const here = inline(data)
    return Executor.of({
      answer: (execution) =>
        isBounded(execution) ? here(execution) : Effect.callback<Uint8Array, InvalidParameter>((resume) => {
          const ticket = pool.submit(execution, (outcome) => resume(settle(outcome)))
          return Effect.sync(() => pool.cancel(ticket))
        })
    })
  })

const settle = (outcome: Outcome): Effect.Effect<Uint8Array, InvalidParameter> => {
  switch (outcome.kind) {
    case "body":
      return Effect.succeed(outcome.body)
    case "refused":
      return Effect.fail(new InvalidParameter(outcome.refusal))
    case "defect":
      return Effect.die(new Error(outcome.message))
  }
}
