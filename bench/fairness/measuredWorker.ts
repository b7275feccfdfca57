/**
 * The measured caller's thread (see `startMeasuredCaller` in measuredCaller.ts): its HTTP client
 * compiled first (`warmClient`), it runs each order it is told and posts what it gives. A thread of
 * its own, as the probe and the loaded caller are, so that the bench's main thread (every corpus,
 * tens of MB live) does not time its own collections into the lists' latencies.
 */
import { parentPort } from "node:worker_threads"
import { warmClient } from "../diverse/httpGet.ts"
import { runSequence } from "../diverse/sequence.ts"
import { type CallerOrder, measuredCaller } from "./measuredCaller.ts"

const port = parentPort
if (port === null) throw new Error("the measured caller runs as a worker thread")

await warmClient()
port.on("message", async (order: CallerOrder) => {
  if (order.kind === "warm") {
    await runSequence(order.baseUrl, order.paths, order.duration)
    port.postMessage(undefined)
  } else {
    port.postMessage(await measuredCaller(order.baseUrl, order.paths, order.options))
  }
})
