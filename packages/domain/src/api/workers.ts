/**
 * Whether a route runs on the query workers (issue 24 item 4): declared on its definition
 * (`annotateMerge(onWorkers("list"))`) with the family its executions are timed under
 * (`equides_execution_duration_seconds{family}`, the server's `execution/work.ts` `familyOf`).
 * Read by the test that each such route's handler goes through the Executor and no other route's
 * does (`server/src/execution/onWorkers.test.ts`), by the warm-up before ready (`warmUpExecutions`),
 * and by the bench (its varied families, its fairness bench's loaded caller, and its report of each
 * route's measured execution time beside its declared cost).
 */
import * as Context from "effect/Context"
import type { Execution } from "./answers.ts"

/**
 * The family an execution is timed under: its endpoint, the genetics group's two routes apart
 * (`genetique/equide`, `genetique/stats`: a lookup and a breed's figures), and `parquet` (the
 * server's one write of the whole extract as a file).
 */
export type ExecutionFamily = Exclude<Execution["endpoint"], "genetique"> | "genetique/equide" | "genetique/stats" | "parquet"

/** The family of an API execution. */
export const executionFamily = (execution: Execution): ExecutionFamily =>
  execution.endpoint === "genetique" ? `genetique/${execution.request.kind}` : execution.endpoint

/** The family a route's executions run under on the workers (undefined: it answers in the server's thread). */
export const OnWorkers = Context.Reference<ExecutionFamily | undefined>("@equides/domain/OnWorkers", { defaultValue: () => undefined })

/** A route that runs on the workers, as executions of `family`, declared on its definition (`annotateMerge`). */
export const onWorkers = (family: ExecutionFamily) => Context.make(OnWorkers, family)

/**
 * Why a route on the workers is not run before ready (issue 24 item 6: each worker runs every
 * route on the workers once, with its documentation example, before `/readyz` says 200; the
 * server's `execution/work.ts` `warmUpWork`). Undefined: it is warmed.
 */
export const NotWarmed = Context.Reference<string | undefined>("@equides/domain/NotWarmed", { defaultValue: () => undefined })

/** A route on the workers left out of the warm-up before ready, and why (said on its definition). */
export const notWarmed = (why: string) => Context.make(NotWarmed, why)
