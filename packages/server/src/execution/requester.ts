/**
 * Who an execution is for and which lane it takes on the query pool (issue 24, item 5): set by the
 * pipeline around each request it routes (`pipeline/Pipeline.ts`, from admission's caller key and
 * its route's declared execution cost), read by the `Executor` when it submits work to the pool
 * (`QueryPool.ts`, `fairQueue.ts`). Work submitted outside a request (the warm-up) is anonymous
 * and light.
 */
import * as Context from "effect/Context"

export interface Requester {
  /** The quota's caller key (empty: none known). */
  readonly caller: string
  /** Its route declares `HEAVY_EXECUTION_MS` or more: it may not take the pool's last thread. */
  readonly heavy: boolean
  /** One of the server's rehearsal requests (`node/rehearsal.ts`): its executions are not recorded in the metrics. */
  readonly rehearsal: boolean
}

/**
 * Milliseconds of CPU at full scale (a route's `executionCost`, or the explorer's
 * `EXPLORER_EXECUTION_MS`) from which a route is heavy: a breakdown over the whole set (4 ms), the
 * stallion ranking, a breed's genetics, the explorer's list, statistics and matings; not a filtered
 * list (2 ms) nor a record's lookups. The fairness bench's costly caller sends the heavy routes
 * (`bench/fairness/loadedFamilies.ts`).
 */
export const HEAVY_EXECUTION_MS = 4

export const ANONYMOUS: Requester = { caller: "", heavy: false, rehearsal: false }

/** The requester of a request from `caller` on a route declaring `executionMs` (0: none). */
export const requesterOf = (caller: string, executionMs: number, rehearsal = false): Requester => ({
  caller,
  heavy: executionMs >= HEAVY_EXECUTION_MS,
  rehearsal
})

export const CurrentRequester = Context.Reference<Requester>("@equides/server/Requester", { defaultValue: () => ANONYMOUS })
