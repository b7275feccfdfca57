/**
 * The soak (`--soak-seconds S`): on a server started for it, the resident memory 5 s after ready,
 * then S seconds of every family's paths mixed, over the connections, probes meanwhile,
 * then the resident memory again: what design 5 bounds after 3 minutes of varied load.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { memoryOf, type Memory } from "../processes.ts"
import type { Family } from "./corpora.ts"
import { loadWithProbe, log, type RunOptions, type UnderLoad, withServer } from "./measureRun.ts"

export interface Soak {
  readonly seconds: number
  readonly memoryAfterStart: Memory
  readonly underLoad: UnderLoad
  readonly memoryAfter: Memory
}

const SETTLE_MS = 5000

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
    const underLoad = await loadWithProbe(server, mixed(families), options.connections, seconds)
    return { seconds, memoryAfterStart, underLoad, memoryAfter: await memoryOf(server) }
  })
