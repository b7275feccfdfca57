/**
 * A defect thrown outside any fiber (the front door and the direct lane run in Node's `request`
 * event, the lane's queue in `setImmediate`): logged as the pipeline logs one ("Erreur interne"
 * with its cause), never left to reach Node's `uncaughtException`, which would stop the process
 * and every request it holds over one request's bug (issue 25, item 3).
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export type DefectReport = (defect: unknown) => void

/** Logs with the loggers and level of `context` (the server's, taken where the front door is made). */
export const reportDefectWith = (context: Context.Context<never>): DefectReport => {
  const run = Effect.runSyncWith(context)
  return (defect) => run(Effect.logError("Erreur interne", Cause.die(defect)))
}

/** Logs with Effect's default logger. */
export const reportDefect: DefectReport = reportDefectWith(Context.empty())
