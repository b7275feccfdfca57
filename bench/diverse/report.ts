/**
 * What a varied-traffic run prints and keeps: per pool size, the single executions and the load
 * (medians over the runs, held to the targets of design 5 and issue 9), the resident memory, the
 * crawler's parts, the soak, and the scaling with WORKERS when several sizes were measured.
 */
import { median, type Measurement } from "../load.ts"
import type { Memory } from "../processes.ts"
import { columns, mib, ms, RSS_TARGET_BYTES } from "../report.ts"
import type { FamilyName } from "./corpora.ts"
import { type Bare, FIRST_USE, FIRST_USE_FACTOR, type Run, type Single, type UnderLoad } from "./measureRun.ts"
import type { ProbeSummary } from "./probe.ts"
import type { Soak } from "./soak.ts"

/** Single-execution targets (design 5, varied traffic; issue 9: max ≤ 50 ms for lists, suggestions, breakdowns). */
export const SINGLE_TARGETS: Partial<Record<FamilyName, { readonly p99: number; readonly max?: number }>> = {
  record: { p99: 3 },
  pedigree: { p99: 3 },
  list: { p99: 10, max: 50 },
  autocomplete: { p99: 10, max: 50 },
  breakdown: { p99: 20, max: 50 },
  // Issue 15, the consanguinity routes' own targets.
  "consanguinity-8": { p99: 5 },
  "consanguinity-12": { p99: 50 }
}
/** Probes with 50 varied requests in flight (issue 24 item 4: under every family). */
export const PROBE_P99_TARGET = 10
export const PROBE_MAX_TARGET = 50
/** Resident memory allowed per query worker on top of the 1.1 GiB. */
export const RSS_PER_WORKER_BYTES = 60 * 2 ** 20
/** Issue 24 item 2: at most 1.2 GiB after load (3 minutes of mixed varied traffic), with 2 workers. */
export const RSS_AFTER_LOAD_BYTES = 1.2 * 2 ** 30

export interface WorkersResult {
  /** Undefined: WORKERS left unset (the server's default). */
  readonly workers: number | undefined
  readonly runs: ReadonlyArray<Run>
  readonly soak: Soak | undefined
}

const mid = <A>(items: ReadonlyArray<A>, f: (item: A) => number): number => median(items.map(f))

export const medianSingle = (singles: ReadonlyArray<Single>): Single => ({
  requests: mid(singles, (s) => s.requests),
  errors: singles.reduce((sum, s) => sum + s.errors, 0),
  failedPaths: singles.flatMap((s) => s.failedPaths).slice(0, 3),
  first: mid(singles, (s) => s.first),
  firstUse: {
    requests: mid(singles, (s) => s.firstUse.requests),
    p50: mid(singles, (s) => s.firstUse.p50),
    max: mid(singles, (s) => s.firstUse.max)
  },
  warmRunsOver: mid(singles, (s) => s.warmRunsOver),
  p50: mid(singles, (s) => s.p50),
  p99: mid(singles, (s) => s.p99),
  max: mid(singles, (s) => s.max),
  bytes: mid(singles, (s) => s.bytes),
  slowest: singles.flatMap((s) => s.slowest).sort((a, b) => b.ms - a.ms).slice(0, 3)
})

const medianMeasurement = (runs: ReadonlyArray<Measurement>): Measurement => ({
  requestsPerSecond: mid(runs, (m) => m.requestsPerSecond),
  requests: mid(runs, (m) => m.requests),
  p50: mid(runs, (m) => m.p50),
  p99: mid(runs, (m) => m.p99),
  max: mid(runs, (m) => m.max),
  statuses: Object.assign({}, ...runs.map((m) => m.statuses)),
  errors: runs.reduce((sum, m) => sum + m.errors, 0)
})

export const medianProbes = (runs: ReadonlyArray<ProbeSummary>): ProbeSummary => ({
  probes: mid(runs, (p) => p.probes),
  failures: runs.reduce((sum, p) => sum + p.failures, 0),
  p50: mid(runs, (p) => p.p50),
  p99: mid(runs, (p) => p.p99),
  max: mid(runs, (p) => p.max)
})

export const medianUnderLoad = (runs: ReadonlyArray<UnderLoad>): UnderLoad => ({
  load: medianMeasurement(runs.map((r) => r.load)),
  probes: medianProbes(runs.map((r) => r.probes))
})

/** What is printed and kept for one pool size: medians over the runs. */
export interface WorkersSummary {
  readonly workers: number | undefined
  readonly single: Partial<Record<FamilyName, Single>>
  readonly underLoad: Partial<Record<FamilyName, UnderLoad>>
  /** Crawler parts, in order. */
  readonly crawl: ReadonlyArray<UnderLoad>
  readonly bareSingle: Single
  readonly bare: ReadonlyArray<Bare>
  readonly startToReadyMs: number
  readonly memoryAtReady: number
  readonly memoryAfterLoad: number
  readonly memoryAfterCrawl: number | undefined
  readonly peakRss: number
}

const present = <A>(items: ReadonlyArray<A | undefined>): Array<A> => items.filter((item): item is A => item !== undefined)

export const summarizeWorkers = (result: WorkersResult, names: ReadonlyArray<FamilyName>): WorkersSummary => {
  const { runs } = result
  const single: Partial<Record<FamilyName, Single>> = {}
  const underLoad: Partial<Record<FamilyName, UnderLoad>> = {}
  for (const name of names) {
    const singles = present(runs.map((run) => run.single[name]))
    if (singles.length > 0) single[name] = medianSingle(singles)
    const loads = present(runs.map((run) => run.underLoad[name]))
    if (loads.length > 0) underLoad[name] = medianUnderLoad(loads)
  }
  const crawls = present(runs.map((run) => run.crawl))
  const partCount = Math.max(0, ...crawls.map((crawl) => crawl.parts.length))
  const memories = (f: (run: Run) => Memory | undefined) => present(runs.map(f))
  return {
    workers: result.workers,
    single,
    underLoad,
    crawl: Array.from({ length: partCount }, (_, i) => medianUnderLoad(present(crawls.map((crawl) => crawl.parts[i])))),
    bareSingle: medianSingle(runs.map((run) => run.bareSingle)),
    bare: runs[0].bare.map((bare, i) => ({ bytes: bare.bytes, ...medianUnderLoad(runs.map((run) => run.bare[i])) })),
    startToReadyMs: mid(runs, (run) => run.startToReadyMs),
    memoryAtReady: mid(runs, (run) => run.memoryAtReady.rss),
    memoryAfterLoad: mid(runs, (run) => run.memoryAfterLoad.rss),
    memoryAfterCrawl: crawls.length === 0 ? undefined : median(crawls.map((crawl) => crawl.memoryAfter.rss)),
    peakRss: Math.max(...memories((run) => run.memoryAfterLoad).map((m) => m.peakRss), ...crawls.map((crawl) => crawl.memoryAfter.peakRss))
  }
}

/** The bare answer a family's body is compared with: the one of its size when above the threshold, else the default. */
const bareFor = (bytes: number, bare: ReadonlyArray<Bare>): Bare => bare.find((b) => b.bytes === Math.round(bytes)) ?? bare[0]

const verdict = (misses: ReadonlyArray<string>): string => misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`

const singleMisses = (name: FamilyName, single: Single): Array<string> => {
  const target = SINGLE_TARGETS[name]
  const misses: Array<string> = []
  if (target !== undefined && !(single.p99 <= target.p99)) misses.push(`p99 > ${target.p99}`)
  if (target?.max !== undefined && !(single.max <= target.max)) misses.push(`max > ${target.max}`)
  if (single.errors > 0) misses.push("errors")
  return misses
}

/** Whether the first use's slowest request is over FIRST_USE_FACTOR × the warm p99 (false when either is unknown). */
const overFirstUseRule = (single: Single): boolean => single.firstUse.max > FIRST_USE_FACTOR * single.p99

/**
 * Whether the first use stayed within FIRST_USE_FACTOR × the warm p99 ("" when nothing was warm);
 * when not, how often the warm requests' runs of as many fail the same rule (`warmRunsOver`).
 */
export const firstUseVerdict = (single: Single): string => {
  if (Number.isNaN(single.p99) || Number.isNaN(single.firstUse.max)) return ""
  if (!overFirstUseRule(single)) return verdict([])
  const warm = Number.isNaN(single.warmRunsOver) ? "" : `; so do ${(single.warmRunsOver * 100).toFixed(0)}% of warm ${FIRST_USE}s`
  return verdict([`max > ${FIRST_USE_FACTOR}× p99${warm}`])
}

/** The chance that more than half of `runs` independent runs fail, each with probability `p`. */
const majorityFails = (p: number, runs: number): number => {
  let chance = 0
  let ways = 1
  for (let k = 0; k <= runs; k++) {
    if (k > 0) ways = (ways * (runs - k + 1)) / k
    if (2 * k > runs) chance += ways * p ** k * (1 - p) ** (runs - k)
  }
  return chance
}

/**
 * How many of these families the first-use rule would fail by chance alone, were a family's first
 * FIRST_USE requests no different from any later run of as many: a family fails a run as often as
 * its warm runs fail the same rule (`warmRunsOver`), and the medians over `runs` (odd) runs fail
 * when more than half the runs do. What the machine's own stalls leave to the rule.
 */
export const chanceFirstUseFailures = (singles: ReadonlyArray<Single>, runs: number): number =>
  singles.reduce((sum, single) => (Number.isNaN(single.warmRunsOver) ? sum : sum + majorityFails(single.warmRunsOver, runs)), 0)

const loadMisses = (underLoad: UnderLoad): Array<string> => [
  ...(underLoad.probes.p99 <= PROBE_P99_TARGET ? [] : [`probe p99 > ${PROBE_P99_TARGET}`]),
  ...(underLoad.probes.max <= PROBE_MAX_TARGET ? [] : [`probe max > ${PROBE_MAX_TARGET}`]),
  ...(underLoad.load.errors === 0 && underLoad.probes.failures === 0 ? [] : ["errors"])
]

const workersLabel = (workers: number | undefined): string => workers === undefined ? "WORKERS unset (the server's default)" : `WORKERS=${workers}`

const SINGLE_HEADER = [
  "family",
  "requests",
  "errors",
  "first ms",
  `first ${FIRST_USE} p50`,
  `first ${FIRST_USE} max`,
  "then p50 ms",
  "p99 ms",
  "max ms",
  "body B",
  "target met",
  `first use ≤ ${FIRST_USE_FACTOR}× p99`,
  "slowest"
]

const formatSingle = (summary: WorkersSummary, names: ReadonlyArray<FamilyName>, runs: number): string => {
  const rows = names.flatMap((name) => {
    const single = summary.single[name]
    if (single === undefined) return []
    const slowest = single.slowest[0]
    return [[
      name,
      single.requests.toFixed(0),
      String(single.errors),
      ms(single.first),
      ms(single.firstUse.p50),
      ms(single.firstUse.max),
      ms(single.p50),
      ms(single.p99),
      ms(single.max),
      single.bytes.toFixed(0),
      SINGLE_TARGETS[name] === undefined && single.errors === 0 ? "" : verdict(singleMisses(name, single)),
      firstUseVerdict(single),
      slowest === undefined ? "" : `${ms(slowest.ms)} ms ${slowest.path}`
    ]]
  })
  const bare = summary.bareSingle
  const bareRow = [
    "bare node:http",
    bare.requests.toFixed(0),
    String(bare.errors),
    ms(bare.first),
    ms(bare.firstUse.p50),
    ms(bare.firstUse.max),
    ms(bare.p50),
    ms(bare.p99),
    ms(bare.max),
    bare.bytes.toFixed(0),
    "",
    firstUseVerdict(bare),
    ""
  ]
  const failures = names.flatMap((name) => (summary.single[name]?.failedPaths ?? []).map((path) => `  ${name}: ${path}`))
  const singles = present(names.map((name) => summary.single[name]))
  const overRule = singles.filter(overFirstUseRule).length
  const chance =
    `first use over ${FIRST_USE_FACTOR}× p99: ${overRule} of ${singles.length} families; by chance alone ` +
    `(as often as their warm runs of ${FIRST_USE}), about ${chanceFirstUseFailures(singles, runs).toFixed(2)}`
  return [columns([SINGLE_HEADER, ...rows, bareRow], new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])), chance, ...(failures.length === 0 ? [] : ["failed:", ...failures])].join("\n")
}

const LOAD_HEADER = ["family", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "ratio", "to bare B", "probe p50", "probe p99", "probe max", "target met"]

const loadRow = (name: string, underLoad: UnderLoad, bare: Bare | undefined): Array<string> => [
  name,
  underLoad.load.requestsPerSecond.toFixed(0),
  ms(underLoad.load.p50),
  ms(underLoad.load.p99),
  ms(underLoad.load.max),
  String(underLoad.load.errors),
  bare === undefined ? "" : (underLoad.load.requestsPerSecond / bare.load.requestsPerSecond).toFixed(2),
  bare === undefined ? "" : String(bare.bytes),
  ms(underLoad.probes.p50),
  ms(underLoad.probes.p99),
  ms(underLoad.probes.max),
  verdict(loadMisses(underLoad))
]

const formatLoad = (summary: WorkersSummary, names: ReadonlyArray<FamilyName>): string => {
  const rows = names.flatMap((name) => {
    const underLoad = summary.underLoad[name]
    const single = summary.single[name]
    return underLoad === undefined ? [] : [loadRow(name, underLoad, single === undefined ? undefined : bareFor(single.bytes, summary.bare))]
  })
  const recordBytes = summary.single.record?.bytes
  const crawlRows = summary.crawl.map((part, i) =>
    loadRow(`crawler ${i + 1}/${summary.crawl.length}`, part, recordBytes === undefined ? undefined : bareFor(recordBytes, summary.bare))
  )
  const bareRows = summary.bare.map((bare) => [
    `bare node:http`,
    bare.load.requestsPerSecond.toFixed(0),
    ms(bare.load.p50),
    ms(bare.load.p99),
    ms(bare.load.max),
    String(bare.load.errors),
    "1.00",
    String(bare.bytes),
    ms(bare.probes.p50),
    ms(bare.probes.p99),
    ms(bare.probes.max),
    ""
  ])
  return columns([LOAD_HEADER, ...rows, ...crawlRows, ...bareRows], new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
}

/** The resident-memory allowance for a pool of `workers` (unset: the default, one per core). */
export const rssAllowance = (workers: number | undefined, cpus: number): number =>
  Math.min(RSS_TARGET_BYTES + RSS_PER_WORKER_BYTES * (workers ?? cpus), (workers ?? cpus) <= 2 ? RSS_AFTER_LOAD_BYTES : Infinity)

const formatMemory = (summary: WorkersSummary, soak: Soak | undefined, cpus: number): string => {
  const allowance = rssAllowance(summary.workers, cpus)
  const met = (bytes: number) => bytes <= allowance ? "met" : "not met"
  const lines = [
    `start to ready ${(summary.startToReadyMs / 1000).toFixed(2)} s; resident memory at ready ${mib(summary.memoryAtReady)}, after the load ${mib(summary.memoryAfterLoad)}` +
    `${summary.memoryAfterCrawl === undefined ? "" : `, after the crawl ${mib(summary.memoryAfterCrawl)}`}, peak ${mib(summary.peakRss)}` +
    ` (≤ ${mib(allowance)}: ${met(Math.max(summary.memoryAfterLoad, summary.memoryAfterCrawl ?? 0))})`
  ]
  if (soak !== undefined) {
    const { load, probes } = soak.underLoad
    lines.push(
      `soak: ${mib(soak.memoryAfterStart.rss)} 5 s after ready; ${soak.seconds} s of mixed varied traffic (${load.requests} requests, ${load.requestsPerSecond.toFixed(0)} req/s,` +
        ` p99 ${ms(load.p99)} ms (worst part), errors ${load.errors}, probe p99 ${ms(probes.p99)} ms), then ${mib(soak.memoryAfter.rss)}, peak ${mib(soak.memoryAfter.peakRss)}` +
        ` (≤ ${mib(allowance)}: ${met(soak.memoryAfter.rss)})`
    )
  }
  return lines.join("\n")
}

export const formatWorkers = (summary: WorkersSummary, soak: Soak | undefined, names: ReadonlyArray<FamilyName>, runs: number, connections: number, cpus: number): string =>
  [
    `## ${workersLabel(summary.workers)}`,
    "",
    `single execution: 1 connection, RESPONSE_CACHE_MB=0, a fresh server, each path once, the families in turn; each family's first ${FIRST_USE} ` +
    `requests apart (first use), p50/p99/max over the rest; medians of ${runs} run(s)`,
    "",
    formatSingle(summary, names, runs),
    "",
    `under load: ${connections} connections, response cache on, a fresh server (the crawler on another; the families of one URI, ` +
    `stats and explorer-stats, on another with the cache off), /healthz probed every 10 ms meanwhile; medians of ${runs} run(s)`,
    "",
    formatLoad(summary, names),
    "",
    formatMemory(summary, soak, cpus)
  ].join("\n")

/** Throughput and p99 under load per family, one column per pool size. */
export const formatScaling = (summaries: ReadonlyArray<WorkersSummary>, names: ReadonlyArray<FamilyName>): string => {
  const header = ["family", ...summaries.map((s) => `${workersLabel(s.workers).split(" ")[0]}: req/s · p99 ms`)]
  const rows = names.flatMap((name) =>
    name === "crawler"
      ? [["crawler (last part)", ...summaries.map((s) => {
        const last = s.crawl[s.crawl.length - 1]
        return last === undefined ? "" : `${last.load.requestsPerSecond.toFixed(0)} · ${ms(last.load.p99)}`
      })]]
      : [[name, ...summaries.map((s) => {
        const underLoad = s.underLoad[name]
        return underLoad === undefined ? "" : `${underLoad.load.requestsPerSecond.toFixed(0)} · ${ms(underLoad.load.p99)}`
      })]]
  )
  return columns([header, ...rows], new Set(summaries.map((_, i) => i + 1)))
}
