/**
 * One run of the varied-traffic bench for one pool size (`WORKERS`): every measurement on a server
 * started for it (no warm-up: the first uses after the start count), so that one family's answers
 * kept in the response cache never serve another's.
 *
 * 1. single executions, timed on a thread of their own (`sequenceWorker.ts`): the bare node:http
 *    server on one connection, then each family's paths in turn, one connection, `RESPONSE_CACHE_MB=0`; the
 *    first FIRST_USE requests of each family apart from the rest (issue 24: first use); the server's
 *    execution histograms read before and after the rest: what each route's declared cost is
 *    checked against;
 * 2. under load: each family's paths over 50 connections, response cache on as deployed, probes
 *    of `/healthz` measured meanwhile; resident memory after the load. The families repeating one
 *    URI (the statistics pages) on a server of their own with the response cache off, where
 *    every request executes;
 * 3. the crawler on a server of its own: the id pool in four consecutive parts, so the throughput
 *    of each part shows what filling the response cache does to it;
 * 4. the bare node:http baseline for the body sizes met, over 50 connections (probed meanwhile).
 */
import { percentile, measure, median, type Measurement } from "../load.ts"
import { type ApiServer, memoryOf, type Memory, type Started, startApi, stop } from "../processes.ts"
import { SIZED_BASELINE_ABOVE } from "../report.ts"
import type { Family, FamilyName } from "./corpora.ts"
import { addHistograms, executionHistograms, type Histogram, subtractHistograms } from "./executionCosts.ts"
import { startProbe, type ProbeSummary } from "./probe.ts"
import { type Executed, PackedPaths, type SequenceThread, startSequenceThread } from "./sequence.ts"

export interface RunOptions {
  readonly dataFile: string
  readonly serverEnv: Readonly<Record<string, string>>
  /** `WORKERS` for the server, or undefined to leave it unset (the server's default). */
  readonly workers: number | undefined
  readonly connections: number
  /** Seconds per family and mode. */
  readonly duration: number
}

/** The probe's pace under load: 100 probes a second, light next to the load. */
export const PROBE_INTERVAL_MS = 10
export const PROBE_PATH = "/healthz"
/** Parts of the crawler's walk. */
export const CRAWLER_PARTS = 4
/** A crawler part stops after this long whatever is left of it (a very slow server must not hold the bench). */
const CRAWLER_PART_MAX_SECONDS = 300
const SLOWEST_KEPT = 3
/** Requests of a family counted as its first use (issue 24), reported apart from the warm ones. */
export const FIRST_USE = 50
/** Issue 24 item 6: no request of a family's first use slower than this many times its warm p99. */
export const FIRST_USE_FACTOR = 3
/**
 * Sequences the timing thread runs against the bare server, unrecorded, before it times anything.
 * Its warm-up against a server of its own (`sequenceWorker.ts`) leaves part of its client to be
 * compiled against a real server's answers: in 13 fresh threads, each thread's first two sequences
 * against a bare `node:http` server had a request over 3× their warm p99 (#19–#41, 0.5–2.8 ms
 * against p99s of 0.09–0.13 ms), the third in 7 threads, the later ones 2 of 24, with the server
 * warmed beforehand or not. Unrehearsed, a run's first families were timed in those sequences
 * (28 November, fifteenth session, `docs/performance.md`).
 */
export const CLIENT_REHEARSALS = 3
/**
 * A family's walk under load holds at most `duration` × this many paths: autocannon builds every
 * request of a walk before sending any (about 15 µs each on a busy machine), and the connections'
 * 10 s time-outs run meanwhile. Above what the bare server answers here, so a walk ends by time.
 */
export const MAX_WALK_RATE = 40_000

/** Milliseconds over some requests. */
export interface Latencies {
  readonly requests: number
  readonly p50: number
  readonly max: number
  /** The slowest of them, with their place in the sequence (0: the first): what was slow, and when. */
  readonly slowest?: ReadonlyArray<{ readonly index: number; readonly path: string; readonly ms: number; readonly clientGcMs?: number }>
}

export interface Single {
  readonly requests: number
  /** Answers other than 2xx (status 0: no answer), with a few of their paths. */
  readonly errors: number
  readonly failedPaths: ReadonlyArray<string>
  /** Milliseconds: the family's first request after the server started. */
  readonly first: number
  /** The first FIRST_USE requests of the family. */
  readonly firstUse: Latencies
  /**
   * The share of the warm requests' consecutive runs of FIRST_USE (after the first use, not
   * overlapping) whose slowest is over FIRST_USE_FACTOR × the warm p99: how often the first use's
   * rule fails on traffic that is warm by then, this machine's floor for it (NaN without one such run).
   */
  readonly warmRunsOver: number
  /** Milliseconds over the requests after the first FIRST_USE (NaN when there are none). */
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Median body size. */
  readonly bytes: number
  readonly slowest: ReadonlyArray<{ readonly path: string; readonly ms: number }>
}

export interface UnderLoad {
  readonly load: Measurement
  readonly probes: ProbeSummary
}

export interface Crawl {
  readonly parts: ReadonlyArray<UnderLoad>
  readonly memoryAfter: Memory
}

/**
 * The bare server under 50 connections, probed meanwhile as the API is: its probe latency is the
 * floor this machine sets (the load generator, the probe and the server share its cores).
 */
export interface Bare extends UnderLoad {
  readonly bytes: number
}

export interface Run {
  readonly single: Partial<Record<FamilyName, Single>>
  readonly underLoad: Partial<Record<FamilyName, UnderLoad>>
  readonly crawl: Crawl | undefined
  /** The server's execution histograms by family over the single executions, each family's first uses left out (`executionCosts.ts`). */
  readonly executions: Readonly<Record<string, Histogram>>
  readonly startToReadyMs: number
  readonly memoryAtReady: Memory
  readonly memoryAfterLoad: Memory
  /** One connection, the default 2 KiB answer: the client's and the HTTP round trip's own cost. */
  readonly bareSingle: Single
  readonly bare: ReadonlyArray<Bare>
}

const succeeded = (status: number) => status >= 200 && status < 300

const sortedMs = (executed: ReadonlyArray<Executed>): Float64Array => Float64Array.from(executed, (e) => e.ms).sort()
const maxOf = (sorted: Float64Array): number => sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]

/** The share of `warm`'s consecutive runs of FIRST_USE (in order, not overlapping) whose slowest is over `bound`. */
const runsOver = (warm: ReadonlyArray<Executed>, bound: number): number => {
  const runs = Math.floor(warm.length / FIRST_USE)
  let over = 0
  for (let run = 0; run < runs; run++) {
    let slowest = 0
    for (let i = run * FIRST_USE; i < (run + 1) * FIRST_USE; i++) slowest = Math.max(slowest, warm[i].ms)
    if (slowest > bound) over++
  }
  return runs === 0 ? Number.NaN : over / runs
}

export const summarizeSingle = (executed: ReadonlyArray<Executed>): Single => {
  const firstUse = sortedMs(executed.slice(0, FIRST_USE))
  const warm = sortedMs(executed.slice(FIRST_USE))
  const p99 = percentile(warm, 0.99)
  const failed = executed.filter((e) => !succeeded(e.status))
  return {
    requests: executed.length,
    errors: failed.length,
    failedPaths: failed.slice(0, SLOWEST_KEPT).map((e) => `${e.status} ${e.path}`),
    first: executed[0]?.ms ?? Number.NaN,
    firstUse: {
      requests: firstUse.length,
      p50: percentile(firstUse, 0.5),
      max: maxOf(firstUse),
      slowest: executed.slice(0, FIRST_USE).map(({ path, ms, clientGcMs }, index) => ({ index, path, ms, clientGcMs })).sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_KEPT)
    },
    warmRunsOver: runsOver(executed.slice(FIRST_USE), FIRST_USE_FACTOR * p99),
    p50: percentile(warm, 0.5),
    p99,
    max: maxOf(warm),
    bytes: median(executed.map((e) => e.bytes)),
    slowest: [...executed].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_KEPT).map(({ path, ms }) => ({ path, ms }))
  }
}

const serverEnv = (options: RunOptions, extra: Readonly<Record<string, string>> = {}) => ({
  ...options.serverEnv,
  ...(options.workers === undefined ? {} : { WORKERS: String(options.workers) }),
  ...extra
})

/** `use` on a server started for it, stopped afterwards whatever happens. */
export const withServer = async <A>(options: RunOptions, extra: Readonly<Record<string, string>>, use: (server: ApiServer) => Promise<A>): Promise<A> => {
  const server = await startApi(options.dataFile, serverEnv(options, extra))
  try {
    return await use(server)
  } finally {
    await stop(server)
  }
}

export const log = (text: string) => process.stderr.write(`${text}\n`)
const ms = (value: number) => value.toFixed(2)

/**
 * `paths` over the connections with the probe running meanwhile (each path sent once), or without
 * `paths`, `path` repeated for the whole duration.
 */
export const loadWithProbe = async (
  server: Started,
  paths: ReadonlyArray<string> | undefined,
  connections: number,
  duration: number,
  path = ""
): Promise<UnderLoad> => {
  const probe = await startProbe({ url: server.baseUrl + PROBE_PATH, intervalMs: PROBE_INTERVAL_MS })
  const load = await measure(server.baseUrl + path, { connections, duration, ...(paths === undefined ? {} : { paths }) })
  return { load, probes: await probe.stop() }
}

const describeLoad = (name: string, { load, probes }: UnderLoad) =>
  `  ${name.padEnd(17)} ${load.requestsPerSecond.toFixed(0).padStart(7)} req/s  p99 ${ms(load.p99)} ms  errors ${load.errors}  probe p99 ${ms(probes.p99)} ms (${probes.probes} probes)`

const parts = <A>(items: ReadonlyArray<A>, count: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: count }, (_, i) => items.slice(Math.floor((i * items.length) / count), Math.floor(((i + 1) * items.length) / count))).filter((part) => part.length > 0)

/** Bare sizes: the default answer, and one of each family's size when above the sized-baseline threshold. */
export const bareSizes = (single: Partial<Record<FamilyName, Single>>): Array<number> =>
  [...new Set([0, ...Object.values(single).flatMap((s) => (s === undefined ? [] : [Math.round(s.bytes)])).filter((bytes) => bytes > SIZED_BASELINE_ABOVE)])]

/** The bare server on one connection, then each family's single executions on a fresh server, all timed on `sequences`. */
const singleExecutions = async (sequences: SequenceThread, bare: Started, executing: ReadonlyArray<Family>, options: RunOptions) => {
  log("bare node:http, one connection")
  const barePaths = PackedPaths.of(Array.from({ length: 1_000_000 }, () => "/"))
  for (let rehearsal = 0; rehearsal < CLIENT_REHEARSALS; rehearsal++) await sequences.run(bare.baseUrl, barePaths, options.duration)
  const bareSingle = summarizeSingle(await sequences.run(bare.baseUrl, barePaths, options.duration))
  // Every family packed before the server starts, so that nothing of this thread's runs between two families.
  const packed = executing.map((family) => ({ family, paths: PackedPaths.of(family.paths) }))
  log("single executions (1 connection, response cache off)")
  const timed = await withServer(options, { RESPONSE_CACHE_MB: "0" }, async (server) => {
    const results: Partial<Record<FamilyName, Single>> = {}
    // Each family's executions after its first uses (those are reported apart, as latencies): what its calls cost.
    const scrape = async () => executionHistograms(await fetch(server.metricsUrl).then((response) => response.text()))
    const warm: Array<Record<string, Histogram>> = []
    for (const { family, paths } of packed) {
      let firstUsed: Record<string, Histogram> | undefined
      const sequence = await sequences.run(server.baseUrl, paths, options.duration, { requests: FIRST_USE, run: async () => void (firstUsed = await scrape()) })
      const after = await scrape()
      warm.push(subtractHistograms(after, firstUsed ?? after))
      const result = summarizeSingle(sequence)
      results[family.name] = result
      log(
        `  ${family.name.padEnd(17)} ${String(result.requests).padStart(7)} requests  first ${FIRST_USE}: p50 ${ms(result.firstUse.p50)} max ${ms(result.firstUse.max)}` +
          `  then p50 ${ms(result.p50)}  p99 ${ms(result.p99)}  max ${ms(result.max)} ms  errors ${result.errors}` +
          `  first use's slowest ${(result.firstUse.slowest ?? []).map((s) => `#${s.index} ${ms(s.ms)}${(s.clientGcMs ?? 0) > 0 ? ` (client gc ${ms(s.clientGcMs ?? 0)})` : ""}`).join(", ")}` +
          `  warm ${FIRST_USE}s over ${FIRST_USE_FACTOR}× p99 ${(result.warmRunsOver * 100).toFixed(0)}%`
      )
    }
    return { single: results, executions: addHistograms(warm) }
  })
  return { bareSingle, ...timed }
}

export const measureRun = async (families: ReadonlyArray<Family>, bare: Started, options: RunOptions): Promise<Run> => {
  const executing = families.filter((family) => family.name !== "crawler")
  const crawler = families.find((family) => family.name === "crawler")

  const sequences = startSequenceThread()
  const { single, executions, bareSingle } = await singleExecutions(sequences, bare, executing, options).finally(sequences.close)

  const underLoad: Partial<Record<FamilyName, UnderLoad>> = {}
  const loadEach = async (server: Started, taken: ReadonlyArray<Family>) => {
    for (const family of taken) {
      const paths = family.paths.slice(0, options.duration * MAX_WALK_RATE)
      const result = await loadWithProbe(server, paths, options.connections, options.duration)
      underLoad[family.name] = result
      log(describeLoad(family.name, result))
    }
  }
  log(`${options.connections} connections, response cache on`)
  const loaded = await withServer(options, {}, async (server) => {
    const memoryAtReady = await memoryOf(server)
    await loadEach(server, executing.filter((family) => family.sameUri !== true))
    return { memoryAtReady, memoryAfterLoad: await memoryOf(server), startToReadyMs: server.startToReadyMs }
  })
  const repeating = executing.filter((family) => family.sameUri === true)
  if (repeating.length > 0) {
    log(`${options.connections} connections, one URI per family, response cache off`)
    await withServer(options, { RESPONSE_CACHE_MB: "0" }, (server) => loadEach(server, repeating))
  }

  const crawl = crawler === undefined || crawler.paths.length === 0 ? undefined : await withServer(options, {}, async (server) => {
    log(`crawler: ${crawler.paths.length} ids in ${CRAWLER_PARTS} parts, on a fresh server`)
    const measured: Array<UnderLoad> = []
    for (const part of parts(crawler.paths, CRAWLER_PARTS)) {
      measured.push(await loadWithProbe(server, part, options.connections, CRAWLER_PART_MAX_SECONDS))
      log(describeLoad(`part ${measured.length}`, measured[measured.length - 1]))
    }
    return { parts: measured, memoryAfter: await memoryOf(server) }
  })

  log("bare node:http")
  const bareLoads: Array<Bare> = []
  for (const bytes of bareSizes(single)) {
    const underLoad = await loadWithProbe(bare, undefined, options.connections, options.duration, bytes === 0 ? "" : `/?bytes=${bytes}`)
    bareLoads.push({ bytes: bytes === 0 ? bareSingle.bytes : bytes, ...underLoad })
    log(describeLoad(bytes === 0 ? "default" : `${bytes} B`, underLoad))
  }
  return { single, underLoad, executions, ...loaded, crawl, bareSingle, bare: bareLoads }
}
