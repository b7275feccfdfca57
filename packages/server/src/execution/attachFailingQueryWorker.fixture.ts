/**
 * A query worker that dies (its thread exits) as it is handed the Dataset while the shared flag
 * `workerData.failing[0]` is 1, and otherwise serves as the real one does, dying on the
 * suggestion `q=crash`.
 */
import { parentPort, workerData } from "node:worker_threads"
import { serveQueries } from "./serveQueries.ts"
import { perform } from "./work.ts"

const failing = (workerData as { readonly failing: Int32Array }).failing

parentPort?.on("message", (request: { readonly kind: string }) => {
  if (request.kind === "attach" && Atomics.load(failing, 0) === 1) process.exit(4)
})
serveQueries((data, work) => {
  if ("endpoint" in work && work.endpoint === "suggest" && work.query.q === "crash") process.exit(3)
  return perform(data, work)
})
