/**
 * A query worker whose every execution first waits, its thread blocked (`Atomics.wait`: really
 * busy, as under a heavy query), for a permit the test grants (`workerData.permits[0]` raised and
 * notified), and takes it. Tests of isolation and overload run the pool on it: what is answered
 * before a permit is granted did not wait for a query, however slow the machine.
 */
import { parentPort, workerData } from "node:worker_threads"
import { serveQueries } from "./serveQueries.ts"
import { perform } from "./work.ts"

const { permits } = workerData as { readonly permits: Int32Array }

/** Waits for a permit and takes it. */
const takePermit = (): void => {
  for (;;) {
    const available = Atomics.load(permits, 0)
    if (available === 0) Atomics.wait(permits, 0, 0)
    else if (Atomics.compareExchange(permits, 0, available, available - 1) === available) return
  }
}

/** Set once the Dataset is attached and the warm-up done: the warm-up runs before the pool is ready, ungated. */
let warmedUp = false

serveQueries((data, work) => {
  if (warmedUp) takePermit()
  return perform(data, work)
})
// Registered after `serveQueries`' own listener, so it runs once that one has attached and warmed up.
parentPort?.on("message", (request: { readonly kind: string }) => {
  if (request.kind === "attach") warmedUp = true
})
