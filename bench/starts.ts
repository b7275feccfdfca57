/**
 * `npm run bench -- --starts` (issue 24, design 5): start and memory only, no load. The server is
 * started `--runs` times from the snapshot of the bench's extract and from that of its hard twin
 * (`race` polluted `--race-pollution` times as much as the registry's, 30 by default: about
 * 352 000 distinct values at 4.45 M lines), each extract generated and its snapshot written once
 * (`bench/cache/`); per start: the time from spawn to the first 200 of `/readyz`, then, 5 s later,
 * the resident memory and the main thread's heap. Medians, with the load average of each start.
 */
import { loadavg } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"
import {
  type ApiServer,
  ensureExtract,
  hasSnapshot,
  memoryOf,
  type Memory,
  snapshotRefused,
  startApi,
  stop,
  writeSnapshotOf
} from "./processes.ts"
import { columns, formatMachine, type Machine, mib, RSS_TARGET_BYTES, START_TARGET_SNAPSHOT_S, writeResult } from "./report.ts"

export interface StartsOptions {
  readonly seed: number
  readonly count: number
  readonly runs: number
  readonly dataFile: string | undefined
  /** The hard extract's pollution factor (see `GenerateOptions.racePollution`). */
  readonly racePollution: number
  readonly serverEnv: Readonly<Record<string, string>>
}

/** The hard extract of design 5: 30 times the registry's pollution, ≥ 300 000 distinct values at 4.45 M lines. */
export const HARD_RACE_POLLUTION = 30

/** What the targets are read at: resident memory this long after ready (issue 24). */
export const SETTLE_MS = 5000

interface Start {
  readonly startToReadyMs: number
  readonly memory: Memory
  /** 1-minute load average when the start began. */
  readonly load: number
}

interface Series {
  readonly file: string
  readonly starts: ReadonlyArray<Start>
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The server on `file`'s snapshot, written first when missing and again when the server refuses it. */
const startFromSnapshot = async (file: string, env: Readonly<Record<string, string>>): Promise<ApiServer> => {
  if (!hasSnapshot(file)) await writeSnapshotOf(file)
  const server = await startApi(file, env)
  if (!snapshotRefused(server)) return server
  await stop(server)
  await writeSnapshotOf(file)
  return startApi(file, env)
}

const measure = async (file: string, options: StartsOptions): Promise<Series> => {
  const starts: Array<Start> = []
  for (let run = 0; run < options.runs; run++) {
    const load = loadavg()[0]
    const server = await startFromSnapshot(file, options.serverEnv)
    try {
      await sleep(SETTLE_MS)
      const start = { startToReadyMs: server.startToReadyMs, memory: await memoryOf(server), load }
      process.stderr.write(
        `${file}: ready in ${(start.startToReadyMs / 1000).toFixed(2)} s, ${mib(start.memory.rss)} resident 5 s later (load ${load.toFixed(2)})\n`
      )
      starts.push(start)
    } finally {
      await stop(server)
    }
  }
  return { file, starts }
}

const table = (series: ReadonlyArray<Series>): string => {
  const header = ["extract", "start to ready s", "resident MiB", "peak MiB", "main heap MiB", "load", "targets met"]
  const rows = series.map(({ file, starts }) => {
    const seconds = median(starts.map((s) => s.startToReadyMs)) / 1000
    const rss = median(starts.map((s) => s.memory.rss))
    const heaps = starts.flatMap((s) => (s.memory.heapUsed === undefined ? [] : [s.memory.heapUsed]))
    const misses = [
      ...(seconds <= START_TARGET_SNAPSHOT_S ? [] : [`start > ${START_TARGET_SNAPSHOT_S} s`]),
      ...(rss <= RSS_TARGET_BYTES ? [] : [`resident > ${mib(RSS_TARGET_BYTES)}`])
    ]
    const range = (values: ReadonlyArray<number>, format: (value: number) => string) =>
      `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`
    return [
      file,
      range(starts.map((s) => s.startToReadyMs / 1000), (value) => value.toFixed(2)),
      range(starts.map((s) => s.memory.rss / 2 ** 20), (value) => value.toFixed(0)),
      (median(starts.map((s) => s.memory.peakRss)) / 2 ** 20).toFixed(0),
      heaps.length === 0 ? "" : (median(heaps) / 2 ** 20).toFixed(0),
      starts.map((s) => s.load.toFixed(1)).join(" "),
      misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`
    ]
  })
  return columns([header, ...rows], new Set([3, 4]))
}

export const runStarts = async (startedAt: Date, machine: Machine, options: StartsOptions): Promise<void> => {
  const files = options.dataFile !== undefined
    ? [options.dataFile]
    : [await ensureExtract(options.seed, options.count), await ensureExtract(options.seed, options.count, options.racePollution)]
  const series: Array<Series> = []
  // Two workers unless told otherwise: the configuration the targets are set for.
  const env = { WORKERS: "2", ...options.serverEnv }
  for (const file of files) series.push(await measure(file, { ...options, serverEnv: env }))
  process.stdout.write(
    `\n${formatMachine(machine)}\nfrom the snapshot, ${options.runs} start(s) each, medians (min–max); memory ${SETTLE_MS / 1000} s after ready\n\n${table(series)}\n`
  )
  const file = await writeResult(startedAt, "-starts.json", JSON.stringify({ startedAt, machine, options, series }, null, 2))
  process.stdout.write(`\nwritten: ${file}\n`)
}
