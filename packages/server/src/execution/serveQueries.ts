/**
 * The body of a query worker thread: waits for the Dataset the main thread shares (rebuilt on the
 * same memory, no copy), tells the pool it is ready, then answers executions one at a time (see
 * `QueryPool.ts`, `protocol.ts`). `run` is the real `answer` in `queryWorker.ts`; tests wrap it.
 */
import type { DatasetData } from "@equides/domain"
import { type answer, prepareQueries } from "@equides/domain/answers"
import { attachDataset } from "@equides/ingest/shared"
import { Effect, Result } from "effect"
import { parentPort } from "node:worker_threads"
import { logColumnsBuilds } from "./columnsLog.ts"
import type { Reply, Request } from "./protocol.ts"
import { giveWayToMainThread } from "./threadPriority.ts"

/**
 * A young-generation collection after each answer, when the process exposes `gc` (`main.ts` starts
 * with `--expose-gc`, `processSettings.ts`): a query's bitsets (0.55 MiB each at 4.45 M rows) and row lists die
 * with it, but their memory is returned only when their small wrappers are collected, and V8 waits
 * for tens of MiB of such memory before it collects on its own, in every thread. A scavenge costs
 * well under a millisecond and runs after the reply is sent.
 */
const collectYoung = globalThis.gc === undefined ? undefined : () => globalThis.gc?.({ type: "minor" })

export const serveQueries = (run: typeof answer): void => {
  const port = parentPort
  if (port === null) throw new Error("a query worker runs as a worker thread")
  giveWayToMainThread()
  const reply = (message: Reply, transfer?: ReadonlyArray<ArrayBuffer>): void => port.postMessage(message, transfer)
  let data: DatasetData | undefined

  port.on("message", (request: Request) => {
    if (request.kind === "attach") {
      data = attachDataset(request.share)
      prepareQueries(data)
      reply({ kind: "ready" })
      return
    }
    const { id, execution } = request
    let outcome
    try {
      if (data === undefined) throw new Error("an execution before the Dataset was attached")
      outcome = run(data, execution)
    } catch (error) {
      reply({ kind: "defect", id, message: error instanceof Error ? error.stack ?? error.message : String(error) })
      return
    }
    if (Result.isSuccess(outcome)) {
      const body = outcome.success
      reply({ kind: "body", id, body }, [body.buffer as ArrayBuffer])
    } else {
      const { parametre, detail, indice } = outcome.failure
      reply({ kind: "refused", id, refusal: indice === undefined ? { parametre, detail } : { parametre, detail, indice } })
    }
    Effect.runSync(logColumnsBuilds)
    collectYoung?.()
  })
}
