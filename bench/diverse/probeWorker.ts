/**
 * The probe's thread (see probe.ts): GET the probe URL every `intervalMs` on one kept-alive
 * connection until told to stop, then post the latencies back. A thread of its own, so that the
 * load generator's busy event loop in the main thread does not delay the probes it measures.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { parentPort, workerData } from "node:worker_threads"
import { oneConnection, timedGet, warmClient } from "./httpGet.ts"
import type { ProbeReport, ProbeRequest } from "./probe.ts"

const { url, intervalMs, localAddress } = workerData as ProbeRequest
let running = true
parentPort?.once("message", () => (running = false))

// Its client compiled first: the first probes would otherwise time it, and a p99 of some 300 probes is their third slowest.
await warmClient()
const agent = oneConnection(localAddress)
// The first probe opens the connection: unrecorded, it tells the bench that probing has begun.
await timedGet(agent, url)
parentPort?.postMessage("ready")

const latencies: Array<number> = []
let failures = 0
let next = performance.now()
while (running) {
  const answer = await timedGet(agent, url)
  latencies.push(answer.ms)
  if (answer.status !== 200) failures++
  next += intervalMs
  const wait = next - performance.now()
  // A probe slower than the interval delays the next one instead of firing a burst to catch up.
  if (wait > 0) await sleep(wait)
  else next = performance.now()
}
agent.destroy()
const report: ProbeReport = { latencies: Float64Array.from(latencies), failures }
parentPort?.postMessage(report)
