/**
 * A query worker whose every execution first blocks its thread for `workerData.delayMs`
 * (`Atomics.wait`, not a timer: the thread is really busy, as under a heavy query). Tests of
 * isolation and overload run the pool on it.
 */
import { workerData } from "node:worker_threads"
import { serveQueries } from "./serveQueries.ts"
import { perform } from "./work.ts"

const { delayMs } = workerData as { readonly delayMs: number }
const blocker = new Int32Array(new SharedArrayBuffer(4))

serveQueries((data, work) => {
  Atomics.wait(blocker, 0, 0, delayMs)
  return perform(data, work)
})
