/**
 * The body of a query worker thread: rebuilds the shared Dataset on the memory the main thread
 * shares (no copy), tells the pool it is ready, then answers executions one at a time (see
 * `QueryPool.ts`, `protocol.ts`). `run` is the real `answer` in `queryWorker.ts`; tests wrap it.
 */
import type { DatasetData } from "@equides/domain"
import type { answer } from "@equides/domain/answers"
import { attachDataset } from "@equides/ingest/shared"
import { Result } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { Job, Reply, WorkerData } from "./protocol.ts"

export const serveQueries = (run: typeof answer): void => {
  const port = parentPort
  if (port === null) throw new Error("a query worker runs as a worker thread")
  const data: DatasetData = attachDataset((workerData as WorkerData).share)
  const reply = (message: Reply, transfer?: ReadonlyArray<ArrayBuffer>): void => port.postMessage(message, transfer)

  port.on("message", ({ id, execution }: Job) => {
    let outcome
    try {
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
  })
  reply({ kind: "ready" })
}
