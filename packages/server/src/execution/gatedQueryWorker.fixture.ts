/**
 * A query worker whose every execution first waits, its thread blocked (`Atomics.wait`: really
 * busy, as under a heavy query), for a permit the test grants (`workerData.permits[0]` raised and
 * notified), and takes it. Tests of isolation and overload run the pool on it: what is answered
 * before a permit is granted did not wait for a query, however slow the machine. With
 * `workerData.collections`, a full collection the pool asks for is counted (`collections[0]`) and
 * then waits likewise for a permit of its own (`collections[1]`).
 */
import { parentPort, workerData } from "node:worker_threads"
import { takePermit } from "./permits.fixture.ts"
import { serveQueries } from "./serveQueries.ts"
import { perform } from "./work.ts"

const { permits, collections } = workerData as { readonly permits: Int32Array; readonly collections?: Int32Array }

const collect = collections === undefined ? () => undefined : () => {
  Atomics.add(collections, 0, 1)
  takePermit(collections, 1)
}

/** Set once the Dataset is attached and the warm-up done: the warm-up runs before the pool is ready, ungated. */
let warmedUp = false

serveQueries((data, work) => {
  if (warmedUp) takePermit(permits, 0)
  return perform(data, work)
}, collect)
// Registered after `serveQueries`' own listener, so it runs once that one has attached and warmed up.
parentPort?.on("message", (request: { readonly kind: string }) => {
  if (request.kind === "attach") warmedUp = true
})
