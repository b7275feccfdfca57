/**
 * A query worker whose every execution first blocks its thread (`Atomics.wait`, not a timer: the
 * thread is really busy, as under a heavy query): for `workerData.delayMs`, or, given
 * `workerData.gate` (shared memory), until the test opens it (`gate[0]` set to 1 and notified).
 * Tests of isolation and overload run the pool on it.
 */
import { answer } from "@equides/domain/answers"
import { workerData } from "node:worker_threads"
import { serveQueries } from "./serveQueries.ts"

const { delayMs, gate } = workerData as { readonly delayMs?: number; readonly gate?: Int32Array }
const blocker = new Int32Array(new SharedArrayBuffer(4))

serveQueries((data, execution) => {
  if (gate === undefined) Atomics.wait(blocker, 0, 0, delayMs)
  else Atomics.wait(gate, 0, 0)
  return answer(data, execution)
})
