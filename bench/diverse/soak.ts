/**
 * The soak (`--soak-seconds S`): on a server started for it, the resident memory 5 s after ready,
 * then S seconds of every family's paths mixed, over the connections, probes meanwhile,
 * then the resident memory again: what design 5 bounds after 3 minutes of varied load.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { measure, type Measurement, median } from "../load.ts"
import { memoryOf, type Memory, type Started } from "../processes.ts"
import type { Family } from "./corpora.ts"
import { log, PROBE_INTERVAL_MS, PROBE_PATH, type RunOptions, type UnderLoad, withServer } from "./measureRun.ts"
import { startProbe } from "./probe.ts"

export interface Soak {
  readonly seconds: number
  readonly memoryAfterStart: Memory
  readonly underLoad: UnderLoad
  readonly memoryAfter: Memory
}

const SETTLE_MS = 5000
/**
 * The soak walks its paths in consecutive parts of this many: autocannon builds every request of a
 * walk before sending any, and building hundreds of thousands holds the event loop long enough for
 * the first connections' 10 s time-outs to fire.
 */
export const SOAK_PART = 20_000

/** One measurement of consecutive parts: counts added up, throughput over their time, the worst part's p99 and max. */
export const combine = (parts: ReadonlyArray<Measurement>): Measurement => {
  const seconds = parts.reduce((sum, part) => sum + (part.requestsPerSecond > 0 ? part.requests / part.requestsPerSecond : 0), 0)
  const requests = parts.reduce((sum, part) => sum + part.requests, 0)
  const statuses: Record<string, number> = {}
  for (const part of parts) for (const [status, count] of Object.entries(part.statuses)) statuses[status] = (statuses[status] ?? 0) + count
  return {
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    requests,
    p50: median(parts.map((part) => part.p50)),
    p99: Math.max(...parts.map((part) => part.p99)),
    max: Math.max(...parts.map((part) => part.max)),
    statuses,
    errors: parts.reduce((sum, part) => sum + part.errors, 0)
  }
}

/** `paths` part after part over the connections for `seconds` in all, the probe running throughout. */
const soakLoad = async (server: Started, paths: ReadonlyArray<string>, connections: number, seconds: number): Promise<UnderLoad> => {
  const probe = await startProbe({ url: server.baseUrl + PROBE_PATH, intervalMs: PROBE_INTERVAL_MS })
  const deadline = performance.now() + seconds * 1000
  const parts: Array<Measurement> = []
  for (let start = 0; start < paths.length && performance.now() < deadline; start += SOAK_PART) {
    const remaining = (deadline - performance.now()) / 1000
    parts.push(await measure(server.baseUrl, { connections, duration: remaining, paths: paths.slice(start, start + SOAK_PART) }))
  }
  return { load: combine(parts), probes: await probe.stop() }
}

/**
 * The families' paths in turn (one of each, then the next of each…, a family dropping out when it
 * has no more), so that each weighs the same whatever the size of its corpus. The crawler is left
 * out: its ids are the record family's.
 */
export const mixed = (families: ReadonlyArray<Family>): Array<string> => {
  const taken = families.filter((family) => family.name !== "crawler")
  const longest = Math.max(0, ...taken.map((family) => family.paths.length))
  const paths: Array<string> = []
  for (let i = 0; i < longest; i++) for (const family of taken) if (i < family.paths.length) paths.push(family.paths[i])
  return paths
}

export const soak = (families: ReadonlyArray<Family>, seconds: number, options: RunOptions): Promise<Soak> =>
  withServer(options, {}, async (server) => {
    await sleep(SETTLE_MS)
    const memoryAfterStart = await memoryOf(server)
    log(`soak: ${seconds} s of mixed varied traffic`)
    const underLoad = await soakLoad(server, mixed(families), options.connections, seconds)
    return { seconds, memoryAfterStart, underLoad, memoryAfter: await memoryOf(server) }
  })
