/**
 * The loaded caller's thread (see loadedCaller.ts): `connections` loops over one Agent bound to
 * `localAddress`, each sending the next path once its last answer is in (after a refusal's
 * `Retry-After` when it honours them), until told to stop; then
 * it posts what was answered before the stop (the requests still in flight are dropped).
 */
import { Agent } from "node:http"
import { parentPort, workerData } from "node:worker_threads"
import { timedGet } from "../diverse/httpGet.ts"
import type { LoadReport, LoadRequest } from "./loadedCaller.ts"

const { baseUrl, paths, connections, localAddress, honoursRetryAfter } = workerData as LoadRequest
const agent = new Agent({ keepAlive: true, maxSockets: connections, localAddress })
const statuses: Record<string, number> = {}
const latencies: Array<number> = []
let running = true
let next = 0
let answered: () => void = () => {}
const firstAnswer = new Promise<void>((resolve) => (answered = resolve))

const loop = async () => {
  while (running) {
    const answer = await timedGet(agent, baseUrl + paths[next++ % paths.length])
    if (!running) break
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
    if (answer.status === 200) latencies.push(answer.ms)
    answered()
    if (answer.status === 429 && honoursRetryAfter) {
      const seconds = Number(answer.headers["retry-after"] ?? "1")
      await new Promise((resolve) => setTimeout(resolve, 1000 * (Number.isFinite(seconds) && seconds > 0 ? seconds : 1)))
    }
  }
}

const started = performance.now()
parentPort?.once("message", () => {
  running = false
  const report: LoadReport = { seconds: (performance.now() - started) / 1000, statuses, latencies: Float64Array.from(latencies) }
  parentPort?.postMessage(report)
  agent.destroy()
})
for (let i = 0; i < connections; i++) void loop()
await firstAnswer
parentPort?.postMessage("ready")
