/**
 * What the fairness bench (issue 24 item 5) prints and keeps: per phase, the measured caller's list
 * latencies, the probes; under load, the loaded caller's answers per second; the ratio of the
 * measured caller's p99 loaded to unloaded, held to FAIRNESS_FACTOR; medians over the runs.
 */
import { median, percentile } from "../load.ts"
import { columns, ms } from "../report.ts"
import type { ProbeSummary } from "../diverse/probe.ts"
import { medianProbes, PROBE_MAX_TARGET, PROBE_P99_TARGET } from "../diverse/report.ts"
import type { LoadSummary } from "./loadedCaller.ts"
import type { CallerRecord } from "./measuredCaller.ts"

/** Issue 24 item 5: another caller's list p99 stays within this many times its unloaded value. */
export const FAIRNESS_FACTOR = 2

/** Milliseconds over some requests. */
export interface Latency {
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly max: number
}

export const latencyOf = (values: ReadonlyArray<number>): Latency => {
  const sorted = Float64Array.from(values).sort()
  return {
    requests: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]
  }
}

/** One phase as seen by the measured caller and the probe. */
export interface Phase {
  /** Over its 200s. */
  readonly measured: Latency
  /** Its answers per status (429: refused by its own quota; 0: no answer). */
  readonly statuses: Readonly<Record<string, number>>
  readonly probes: ProbeSummary
}

export const phaseOf = (record: CallerRecord, probes: ProbeSummary): Phase => ({ measured: latencyOf(record.latencies), statuses: record.statuses, probes })

export interface LoadedPhase extends Phase {
  readonly loadedCaller: LoadSummary
}

export interface FairnessRun {
  readonly startToReadyMs: number
  readonly unloaded: Phase
  readonly loaded: LoadedPhase
}

export interface FairnessSummary {
  readonly runs: number
  readonly unloaded: Phase
  readonly loaded: LoadedPhase
  /** The median over the runs of each run's loaded p99 / unloaded p99 (one server, both phases). */
  readonly ratio: number
  /** The targets missed: empty when all are met. */
  readonly misses: ReadonlyArray<string>
}

const mid = <A>(items: ReadonlyArray<A>, f: (item: A) => number): number => median(items.map(f))

const addedUp = (all: ReadonlyArray<Readonly<Record<string, number>>>): Record<string, number> => {
  const sum: Record<string, number> = {}
  for (const statuses of all) for (const [status, n] of Object.entries(statuses)) sum[status] = (sum[status] ?? 0) + n
  return sum
}

const medianPhase = (phases: ReadonlyArray<Phase>): Phase => ({
  measured: {
    requests: mid(phases, (p) => p.measured.requests),
    p50: mid(phases, (p) => p.measured.p50),
    p99: mid(phases, (p) => p.measured.p99),
    max: mid(phases, (p) => p.measured.max)
  },
  statuses: addedUp(phases.map((p) => p.statuses)),
  probes: medianProbes(phases.map((p) => p.probes))
})

const medianLoad = (loads: ReadonlyArray<LoadSummary>): LoadSummary => ({
  seconds: mid(loads, (l) => l.seconds),
  statuses: addedUp(loads.map((l) => l.statuses)),
  okPerSecond: mid(loads, (l) => l.okPerSecond),
  tooManyPerSecond: mid(loads, (l) => l.tooManyPerSecond),
  otherPerSecond: mid(loads, (l) => l.otherPerSecond),
  p50: mid(loads, (l) => l.p50),
  p99: mid(loads, (l) => l.p99)
})

/** Answers of the measured caller other than 200, over the runs. */
const notOk = (statuses: Readonly<Record<string, number>>): number =>
  Object.entries(statuses).reduce((sum, [status, n]) => status === "200" ? sum : sum + n, 0)

export const summarizeFairness = (runs: ReadonlyArray<FairnessRun>): FairnessSummary => {
  const unloaded = medianPhase(runs.map((run) => run.unloaded))
  const loaded = { ...medianPhase(runs.map((run) => run.loaded)), loadedCaller: medianLoad(runs.map((run) => run.loaded.loadedCaller)) }
  const ratio = mid(runs, (run) => run.loaded.measured.p99 / run.unloaded.measured.p99)
  const misses = [
    ...(ratio <= FAIRNESS_FACTOR ? [] : [`list p99 > ${FAIRNESS_FACTOR}× unloaded`]),
    ...(loaded.probes.p99 <= PROBE_P99_TARGET ? [] : [`probe p99 > ${PROBE_P99_TARGET}`]),
    ...(loaded.probes.max <= PROBE_MAX_TARGET ? [] : [`probe max > ${PROBE_MAX_TARGET}`]),
    ...(notOk(unloaded.statuses) + notOk(loaded.statuses) === 0 ? [] : ["the measured caller had answers other than 200"]),
    ...(unloaded.probes.failures + loaded.probes.failures === 0 ? [] : ["probes failed"])
  ]
  return { runs: runs.length, unloaded, loaded, ratio, misses }
}

const statusList = (statuses: Readonly<Record<string, number>>): string =>
  Object.entries(statuses).map(([status, n]) => `${status === "0" ? "no answer" : status} ${n}`).join(", ")

const phaseRow = (name: string, phase: Phase): Array<string> => [
  name,
  phase.measured.requests.toFixed(0),
  ms(phase.measured.p50),
  ms(phase.measured.p99),
  ms(phase.measured.max),
  String(notOk(phase.statuses)),
  ms(phase.probes.p50),
  ms(phase.probes.p99),
  ms(phase.probes.max),
  String(phase.probes.failures)
]

export interface FairnessSetup {
  readonly measuredAddress: string
  readonly loadedAddress: string
  readonly probeAddress: string
  readonly probeIntervalMs: number
  readonly connections: number
  readonly duration: number
  readonly workers: number
  /** `RateLimit-Policy` as the server sent it. */
  readonly policy: string
  readonly loadedFamilies: ReadonlyArray<string>
  /** The loaded caller sends on at once after a 429 (`--flood`) instead of waiting its `Retry-After`. */
  readonly flood: boolean
}

export const formatFairness = (summary: FairnessSummary, setup: FairnessSetup): string => {
  const { loadedCaller } = summary.loaded
  const verdict = summary.misses.length === 0 ? "yes" : `no: ${summary.misses.join(", ")}`
  return [
    `## fairness (issue 24 item 5): WORKERS=${setup.workers}, quota as deployed (RateLimit-Policy ${setup.policy}), response cache on; medians of ${summary.runs} run(s), a fresh server each`,
    "",
    `measured caller ${setup.measuredAddress}: varied list pages, 1 connection, one at a time, paced within its quota, ${setup.duration} s per phase (fresh URIs in each);` +
    ` /healthz probed from ${setup.probeAddress} every ${setup.probeIntervalMs} ms`,
    "",
    columns([
      ["phase", "lists", "p50 ms", "p99 ms", "max ms", "not 200", "probe p50", "probe p99", "probe max", "probes failed"],
      phaseRow("unloaded", summary.unloaded),
      phaseRow(`loaded`, summary.loaded)
    ], new Set([1, 2, 3, 4, 5, 6, 7, 8, 9])),
    "",
    `loaded caller ${setup.loadedAddress}: ${setup.loadedFamilies.join(", ")} in turn, ${setup.connections} connections, ${setup.flood ? "refusals taken as they come (--flood)" : "each 429's Retry-After waited out"}:` +
    ` 200 ${loadedCaller.okPerSecond.toFixed(1)}/s (p50 ${ms(loadedCaller.p50)} ms, p99 ${ms(loadedCaller.p99)} ms),` +
    ` 429 ${loadedCaller.tooManyPerSecond.toFixed(0)}/s, other ${loadedCaller.otherPerSecond.toFixed(1)}/s (all runs: ${statusList(loadedCaller.statuses)})`,
    ...(notOk(summary.unloaded.statuses) + notOk(summary.loaded.statuses) === 0
      ? []
      : [`measured caller's answers: unloaded ${statusList(summary.unloaded.statuses)}; loaded ${statusList(summary.loaded.statuses)}`]),
    "",
    `list p99 loaded / unloaded: ${summary.ratio.toFixed(2)} (median of the runs' ratios; target ≤ ${FAIRNESS_FACTOR});` +
    ` probes under load p99 ≤ ${PROBE_P99_TARGET} ms, max ≤ ${PROBE_MAX_TARGET} ms; targets met: ${verdict}`
  ].join("\n")
}
