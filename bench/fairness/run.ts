/**
 * `npm run bench -- --fairness`: issue 24 item 5's target, "with one caller within its quota
 * sending the most expensive requests at 50 connections, another caller's list p99 stays ≤ 2× its
 * unloaded value", and the probes meanwhile. One server per run, quota and response cache as
 * deployed; three callers told apart by their loopback source address (the quota keys on it):
 *
 * 1. unloaded: the measured caller (127.0.0.1) sends varied list pages one at a time, paced within
 *    its quota, for `duration` seconds; /healthz probed (127.0.0.3, within its own quota);
 * 2. once both buckets are full again: the loaded caller (127.0.0.2) sends the varied families of
 *    the routes that declare the costliest executions (`loadedFamilies.ts`: the stallions' ranking,
 *    breakdowns, 12-generation consanguinity, the explorer's list page and /explorer/stats today) over `connections`, taking its
 *    429s, while the measured caller does as in 1 with fresh URIs and the probe runs again.
 */
import { loadavg } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"
import { ensureExtract, startApi, stop } from "../processes.ts"
import { formatMachine, type Machine, writeResult } from "../report.ts"
import { oneConnection, timedGet } from "../diverse/httpGet.ts"
import { log, PROBE_INTERVAL_MS, PROBE_PATH } from "../diverse/measureRun.ts"
import { startProbe } from "../diverse/probe.ts"
import { drawFamilies } from "../diverse/run.ts"
import { mixed } from "../diverse/soak.ts"
import { type LoadRequest, type LoadSummary, startLoad } from "./loadedCaller.ts"
import { loadedFamilies } from "./loadedFamilies.ts"
import { startMeasuredCaller } from "./measuredCaller.ts"
import { parsePolicy, type Policy, probeIntervalMs, unitsPerSecond } from "./pacing.ts"
import { type FairnessRun, type FairnessSetup, formatFairness, type Phase, phaseOf, summarizeFairness } from "./report.ts"

export interface FairnessOptions {
  readonly seed: number
  readonly count: number
  readonly dataFile: string | undefined
  readonly serverEnv: Readonly<Record<string, string>>
  /** Seconds per phase. */
  readonly duration: number
  readonly runs: number
  /** The loaded caller's connections. */
  readonly connections: number
  readonly workers: number
  readonly crawl: number | undefined
  readonly corpus: number
  readonly corpusSeed: number
  /** The loaded caller ignores its refusals' `Retry-After` (`--flood`). */
  readonly flood: boolean
}

export const MEASURED_ADDRESS = "127.0.0.1"
export const LOADED_ADDRESS = "127.0.0.2"
/** The probe is a caller too: from the measured caller's address it would spend that caller's quota. */
export const PROBE_ADDRESS = "127.0.0.3"
/** List pages sent before the unloaded phase (not measured): the server's first uses are not the unloaded value. */
const WARM_UP = 20

const header = (value: string | ReadonlyArray<string> | undefined): string | undefined => typeof value === "string" ? value : value?.join(", ")

interface Corpus {
  readonly warmUp: ReadonlyArray<string>
  readonly unloaded: ReadonlyArray<string>
  readonly loaded: ReadonlyArray<string>
  /** The loaded caller's paths. */
  readonly heavy: ReadonlyArray<string>
}

const measureRun = async (dataFile: string, corpus: Corpus, options: FairnessOptions): Promise<{ run: FairnessRun; policy: string; probeIntervalMs: number }> => {
  const server = await startApi(dataFile, { ...options.serverEnv, WORKERS: String(options.workers) }, "deployed")
  const caller = startMeasuredCaller()
  try {
    const check = oneConnection(PROBE_ADDRESS)
    const policyHeader = header((await timedGet(check, server.baseUrl + PROBE_PATH)).headers["ratelimit-policy"])
    check.destroy()
    const policy: Policy | undefined = parsePolicy(policyHeader)
    if (policy === undefined || policyHeader === undefined) throw new Error("the server sends no RateLimit-Policy: its quota is off (RATE_LIMIT_RATE=0 in --server-env?)")
    const rate = unitsPerSecond(policy)
    const probe = { url: server.baseUrl + PROBE_PATH, intervalMs: probeIntervalMs(rate, PROBE_INTERVAL_MS), localAddress: PROBE_ADDRESS }
    // Every bucket full again, as at the start.
    const refill = () => sleep(policy.windowSeconds * 1000)

    const phase = async (paths: ReadonlyArray<string>, load?: LoadRequest): Promise<{ phase: Phase; load: LoadSummary | undefined }> => {
      const probing = await startProbe(probe)
      const loading = load === undefined ? undefined : await startLoad(load)
      const record = await caller.measure(server.baseUrl, paths, { localAddress: MEASURED_ADDRESS, rate, duration: options.duration })
      const [probes, loaded] = await Promise.all([probing.stop(), loading?.stop()])
      return { phase: phaseOf(record, probes), load: loaded }
    }
    const describe = (name: string, { measured, statuses, probes }: Phase) =>
      log(`  ${name.padEnd(9)} ${measured.requests} lists  p50 ${measured.p50.toFixed(2)}  p99 ${measured.p99.toFixed(2)}  max ${measured.max.toFixed(2)} ms` +
        `  statuses ${JSON.stringify(statuses)}  probe p99 ${probes.p99.toFixed(2)} max ${probes.max.toFixed(2)} ms`)

    await caller.warm(server.baseUrl, corpus.warmUp, options.duration)
    await refill()
    const unloaded = await phase(corpus.unloaded)
    describe("unloaded", unloaded.phase)
    await refill()
    const loaded = await phase(corpus.loaded, { baseUrl: server.baseUrl, paths: corpus.heavy, connections: options.connections, localAddress: LOADED_ADDRESS, honoursRetryAfter: !options.flood })
    describe("loaded", loaded.phase)
    const loadedCaller = loaded.load
    if (loadedCaller === undefined) throw new Error("the loaded phase ran without its load")
    log(`  loaded caller: 200 ${loadedCaller.okPerSecond.toFixed(1)}/s, 429 ${loadedCaller.tooManyPerSecond.toFixed(0)}/s, statuses ${JSON.stringify(loadedCaller.statuses)}`)
    return {
      run: { startToReadyMs: server.startToReadyMs, unloaded: unloaded.phase, loaded: { ...loaded.phase, loadedCaller } },
      policy: policyHeader,
      probeIntervalMs: probe.intervalMs
    }
  } finally {
    await caller.close()
    await stop(server)
  }
}

export const runFairness = async (startedAt: Date, machine: Machine, options: FairnessOptions): Promise<void> => {
  const dataFile = options.dataFile ?? (await ensureExtract(options.seed, options.count))
  log(`drawing the corpora from ${dataFile}, on a server of its own`)
  const sampler = await startApi(dataFile, options.serverEnv)
  const { sample, families } = await drawFamilies(sampler, options)
  const loaded = loadedFamilies(families)
  const loadedNames = loaded.map((family) => family.name)
  const lists = families.find((family) => family.name === "list")?.paths ?? []
  const half = (lists.length - WARM_UP) >> 1
  const corpus: Corpus = {
    warmUp: lists.slice(lists.length - WARM_UP),
    unloaded: lists.slice(0, half),
    loaded: lists.slice(half, 2 * half),
    heavy: mixed(loaded)
  }
  log(`${lists.length} list paths, ${corpus.heavy.length} heavy paths (${loadedNames.join(", ")})`)

  const runs: Array<FairnessRun> = []
  let policy = ""
  let probeInterval = PROBE_INTERVAL_MS
  for (let run = 1; run <= options.runs; run++) {
    log(`\nWORKERS=${options.workers}: run ${run}/${options.runs}`)
    const measured = await measureRun(dataFile, corpus, options)
    runs.push(measured.run)
    policy = measured.policy
    probeInterval = measured.probeIntervalMs
  }

  const summary = summarizeFairness(runs)
  const setup: FairnessSetup = {
    measuredAddress: MEASURED_ADDRESS,
    loadedAddress: LOADED_ADDRESS,
    probeAddress: PROBE_ADDRESS,
    probeIntervalMs: probeInterval,
    connections: options.connections,
    duration: options.duration,
    workers: options.workers,
    policy,
    loadedFamilies: loadedNames,
    flood: options.flood
  }
  const loadAverageAtEnd = loadavg().map((load) => Math.round(load * 100) / 100)
  const busy = Math.max(machine.loadAverage[0], loadAverageAtEnd[0]) > machine.cpus / 2
  process.stdout.write(
    `\n${formatMachine(machine)}; at the end ${loadAverageAtEnd.join(" ")}\n` +
      (busy ? `warning: the load average says other work was running: figures are pessimistic\n` : "") +
      `${sample.records} records (${dataFile}); corpora seed ${options.corpusSeed}\n\n${formatFairness(summary, setup)}\n`
  )
  const file = await writeResult(
    startedAt,
    "-fairness.json",
    JSON.stringify({ startedAt, machine, loadAverageAtEnd, options, dataFile, records: sample.records, setup, summary, runs }, null, 2)
  )
  process.stdout.write(`\nwritten: ${file}\n`)
}
