/**
 * `npm run bench -- --answer-paths` (and a section of the default bench): the answer paths that
 * execute nothing (a 304, a kept response) and executed lookups with the response cache off, each
 * beside the bare `node:http` server answering the same thing (a 304 with the same validators, a
 * 200 of the same size), measured with wrk (issue 11 item 7; issue 9 item 3). Targets: 304 and
 * kept ≥ 0.7 of bare; executed lookups ≥ 0.35.
 */
import type { Machine } from "./report.ts"
import { columns, formatMachine, writeResult } from "./report.ts"
import { type ApiServer, ensureExtract, type Started, startApi, startBare, stop } from "./processes.ts"
import { pickValues, probe, probeAnswer } from "./routes.ts"
import { availableParallelism } from "node:os"
import { findPinning, findWrk, type Pinning, pinProcess, SLICE_SECONDS, sliceCount, type WrkOptions, wrkPaired, type WrkResult, type WrkTarget } from "./wrk.ts"

export const ANSWER_PATH_TARGET = 0.7
export const EXECUTED_LOOKUP_TARGET = 0.35

interface Pair {
  readonly name: string
  readonly target: number
  readonly api: WrkTarget
  readonly bare: WrkTarget
}

interface PairResult {
  readonly name: string
  readonly target: number
  readonly api: WrkResult
  readonly bare: WrkResult
  /** The API's rate over bare's, the median over adjacent slices (`wrkPaired`), and its quartiles. */
  readonly ratio: number
  readonly ratioQuartiles: readonly [number, number]
  /** Slices measured per server. */
  readonly slices: number
  /** Bare CPU per request over the API's: the rate ratio a server that had the machine to itself would show. */
  readonly cpuRatio: number | undefined
}

/** Pairs of (API, bare) targets; `lookups` on a server whose response cache is off. */
const pairsOn = async (api: ApiServer, bare: Started, paths: ReadonlyArray<readonly [string, string]>, target: number): Promise<Array<Pair>> =>
  Promise.all(paths.map(async ([name, path]) => {
    const size = await probe(api.baseUrl + path)
    return { name, target, api: { name, url: api.baseUrl + path, pid: api.pid }, bare: { name: `bare, ${size} B`, url: `${bare.baseUrl}/?bytes=${size}`, pid: bare.pid } }
  }))

const measurePairs = async (pairs: ReadonlyArray<Pair>, options: WrkOptions): Promise<Array<PairResult>> => {
  const rows: Array<PairResult> = []
  for (const pair of pairs) {
    const { first: bare, second: api, ratio, ratioQuartiles, slices, cpuRatio } = await wrkPaired(pair.bare, pair.api, options)
    rows.push({ name: pair.name, target: pair.target, api, bare, ratio, ratioQuartiles, slices, cpuRatio })
  }
  return rows
}

export const formatPairs = (rows: ReadonlyArray<PairResult>): string =>
  columns([
    ["path", "API req/s", "bare req/s", "ratio", "target", "ratio q1–q3", "API µs CPU/req", "bare µs CPU/req", "CPU ratio", "API p99 ms", "bare p99 ms", "errors"],
    ...rows.map((row) => [
      row.name,
      row.api.requestsPerSecond.toFixed(0),
      row.bare.requestsPerSecond.toFixed(0),
      row.ratio.toFixed(2),
      `≥ ${row.target}${row.ratio >= row.target ? "" : " (missed)"}`,
      `${row.ratioQuartiles[0].toFixed(2)}–${row.ratioQuartiles[1].toFixed(2)}`,
      row.api.cpuMicrosPerRequest?.toFixed(1) ?? "-",
      row.bare.cpuMicrosPerRequest?.toFixed(1) ?? "-",
      row.cpuRatio?.toFixed(2) ?? "-",
      row.api.p99.toFixed(2),
      row.bare.p99.toFixed(2),
      String(row.api.errors)
    ])
  ], new Set([1, 2, 3, 6, 7, 8, 9, 10, 11]))

export interface AnswerPathOptions extends WrkOptions {
  readonly seed: number
  readonly count: number
  readonly dataFile: string | undefined
  /** The hard extract (see `ensureExtract`) instead of the plain one. */
  readonly racePollution?: number | undefined
  readonly serverEnv: Readonly<Record<string, string>>
}

/** The section: both servers started here, the quota off (it would refuse a saturating client). */
export const measureAnswerPaths = async (options: AnswerPathOptions): Promise<{ rows: Array<PairResult>; pinning: Pinning | undefined; text: string } | undefined> => {
  if ((await findWrk()) === undefined) {
    process.stderr.write("wrk is not installed: the answer-path section is skipped (apt-get install wrk)\n")
    return undefined
  }
  const dataFile = options.dataFile ?? (await ensureExtract(options.seed, options.count, options.racePollution))
  const env = { ...options.serverEnv, RATE_LIMIT_RATE: "0" }
  const pinning = await findPinning(availableParallelism())
  const pinned = async <S extends Started>(server: S): Promise<S> => {
    if (pinning !== undefined) await pinProcess(server.pid, pinning.server)
    return server
  }
  const wrkOptions = { ...options, ...(pinning === undefined ? {} : { pinning }) }
  const bare = await pinned(await startBare())
  const cached = await pinned(await startApi(dataFile, env))
  const picks = await pickValues(cached.baseUrl)
  const stats = cached.baseUrl + "/v1/stats"
  const kept = await probeAnswer(stats)
  const keptSize = kept.bytes
  // The bare server gets the same request headers: only the answering differs.
  const revalidation = { "if-none-match": kept.etag ?? "\"none\"" }
  const cheap: Array<Pair> = [
    {
      name: "304 /v1/stats",
      target: ANSWER_PATH_TARGET,
      api: { name: "304 /v1/stats", url: stats, headers: revalidation, pid: cached.pid },
      bare: { name: "bare 304", url: `${bare.baseUrl}/?status=304`, headers: revalidation, pid: bare.pid }
    },
    {
      name: "kept 200 /v1/stats",
      target: ANSWER_PATH_TARGET,
      api: { name: "kept /v1/stats", url: stats, pid: cached.pid },
      bare: { name: `bare, ${keptSize} B`, url: `${bare.baseUrl}/?bytes=${keptSize}`, pid: bare.pid }
    }
  ]
  const rows = await measurePairs(cheap, wrkOptions)
  await stop(cached)
  const uncached = await pinned(await startApi(dataFile, { ...env, RESPONSE_CACHE_MB: "0" }))
  const lookups = await pairsOn(uncached, bare, [
    ["executed: one record", `/v1/equides/${picks.record.id}`],
    ["executed: pedigree", `/v1/equides/${picks.record.id}/pedigree`],
    ["executed: descendance", `/v1/equides/${picks.sire.id}/descendance`],
    ["executed: default list page", "/v1/equides"]
  ], EXECUTED_LOOKUP_TARGET)
  rows.push(...(await measurePairs(lookups, wrkOptions)))
  await Promise.all([stop(uncached), stop(bare)])
  return { rows, pinning, text: formatPairs(rows) }
}

/** Where the servers and wrk ran, for the report. */
const describePinning = (pinning: Pinning | undefined): string =>
  pinning === undefined ? "servers and wrk on every CPU (not pinned)" : `servers pinned to CPU ${pinning.server}, wrk to CPU ${pinning.client}`

/** How the section measured, for the report. */
export const describeMethod = (options: WrkOptions, pinning: Pinning | undefined): string =>
  `wrk, 2 threads, ${options.connections} connections; bare and API alternating in slices of ${SLICE_SECONDS} s, ` +
  `${sliceCount(options)} each (${options.runs} run(s) × ${options.duration} s), ` +
  `medians (the ratio: the median of adjacent slices' ratios); the quota off; ${describePinning(pinning)}`

/** `--answer-paths` alone: the section, printed and written to bench/results. */
export const runAnswerPaths = async (startedAt: Date, machine: Machine, options: AnswerPathOptions): Promise<void> => {
  const measured = await measureAnswerPaths(options)
  if (measured === undefined) return
  process.stdout.write(
    `\n${formatMachine(machine)}\n${describeMethod(options, measured.pinning)}; executed rows with RESPONSE_CACHE_MB=0\n\n${measured.text}\n`
  )
  const file = await writeResult(startedAt, "-answer-paths.json", JSON.stringify({ startedAt, machine, options, pinning: measured.pinning, rows: measured.rows }, null, 2))
  process.stdout.write(`\nwritten: ${file}\n`)
}
