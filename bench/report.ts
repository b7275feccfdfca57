/**
 * What a run prints and keeps: the machine it ran on, one row per route judged against the
 * targets of design 5, the server's start time and memory; the JSON under bench/results/.
 */
import { execFileSync } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { cpus, loadavg, release, totalmem, type } from "node:os"
import { join } from "node:path"
import type { Summary } from "./load.ts"
import type { Memory } from "./processes.ts"
import { ROOT } from "./processes.ts"
import { type Route, TARGETS } from "./routes.ts"

export const RESULTS_DIR = join(ROOT, "bench", "results")

/** Start to ready: from a raw extract, and from a prepared snapshot (design 5). */
export const START_TARGET_RAW_S = 60
export const START_TARGET_SNAPSHOT_S = 3
export const RSS_TARGET_BYTES = 1.1 * 2 ** 30

export interface Machine {
  readonly os: string
  readonly cpuModel: string
  readonly cpus: number
  readonly totalMemoryBytes: number
  readonly node: string
  /** The bench process's own Node and V8 flags (the load generator's: `--single-threaded-gc`, bench/README.md). */
  readonly flags: ReadonlyArray<string>
  readonly commit: string
  /** Uncommitted changes in the work tree when the bench ran. */
  readonly dirty: boolean
  /** 1, 5 and 15 minute load averages at the start: other work on the machine skews a run. */
  readonly loadAverage: ReadonlyArray<number>
}

// GIT_OPTIONAL_LOCKS=0: `git status` must not take the index lock others may need.
const git = (...args: Array<string>): string =>
  execFileSync("git", args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } }).trim()

export const describeMachine = (): Machine => ({
  os: `${type()} ${release()}`,
  cpuModel: cpus()[0]?.model ?? "unknown",
  cpus: cpus().length,
  totalMemoryBytes: totalmem(),
  node: process.version,
  flags: process.execArgv,
  commit: git("rev-parse", "HEAD"),
  dirty: git("status", "--porcelain", "--untracked-files=no").length > 0,
  loadAverage: loadavg().map((load) => Math.round(load * 100) / 100)
})

export interface RouteRow {
  readonly name: string
  readonly path: string
  readonly kind: Route["kind"]
  /** Body size of one answer, as checked before measuring. */
  readonly bytes: number
  readonly summary: Summary
  /** Body size of the bare answer the route is compared with. */
  readonly baselineBytes: number
  /** req/s over that bare baseline's req/s. */
  readonly ratio: number
  /** The targets missed: empty when all are met. */
  readonly misses: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
}

/** A bare baseline: its body size and what it measured. */
export interface Baseline {
  readonly bytes: number
  readonly summary: Summary
}

/**
 * Bodies above this are compared with a bare answer of their own size (design 5: "a fixed body of
 * similar size"); smaller ones with the default 2 KiB bare answer, which is at least as fast as a
 * bare answer of their size would be.
 */
export const SIZED_BASELINE_ABOVE = 4096

/** The baseline `bytes` is compared with, among `baselines` (the default one first). */
export const baselineFor = (bytes: number, baselines: ReadonlyArray<Baseline>): Baseline =>
  (bytes > SIZED_BASELINE_ABOVE ? baselines.find((baseline) => baseline.bytes >= bytes * 0.95 && baseline.bytes <= bytes * 1.05) : undefined) ??
    baselines[0]

export const judge = (route: Route, bytes: number, summary: Summary, bare: Baseline): RouteRow => {
  const targets = TARGETS[route.kind]
  const ratio = summary.requestsPerSecond / bare.summary.requestsPerSecond
  const misses: Array<string> = []
  if (targets.p50 !== undefined && !(summary.p50 <= targets.p50)) misses.push(`p50 > ${targets.p50}`)
  if (!(summary.p99 <= targets.p99)) misses.push(`p99 > ${targets.p99}`)
  if (targets.ratio !== undefined && !(ratio >= targets.ratio)) misses.push(`ratio < ${targets.ratio}`)
  if (summary.errors > 0) misses.push("errors")
  const notes = route.note === undefined ? [] : [route.note]
  const answered = Object.keys(summary.statuses).join(", ")
  if (route.kind === "revalidation" && answered !== "304") {
    misses.push("no 304")
    if (route.headers !== undefined) notes.push(`answered ${answered} to If-None-Match, not 304`)
  }
  return { name: route.name, path: route.path, kind: route.kind, bytes, summary, baselineBytes: bare.bytes, ratio, misses, notes }
}

export const ms = (value: number): string => value < 10 ? value.toFixed(2) : value.toFixed(1)
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`

export const columns = (rows: ReadonlyArray<ReadonlyArray<string>>, rightAligned: ReadonlySet<number>): string => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  return rows
    .map((row) => row.map((cell, i) => rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])).join("  ").trimEnd())
    .join("\n")
}

export const formatRoutes = (baselines: ReadonlyArray<Baseline>, rows: ReadonlyArray<RouteRow>): string => {
  const header = ["route", "req/s", "p50 ms", "p99 ms", "errors", "body B", "ratio", "to bare B", "target met"]
  const bareRows = baselines.map((bare) => [
    "bare node:http (baseline)",
    bare.summary.requestsPerSecond.toFixed(0),
    ms(bare.summary.p50),
    ms(bare.summary.p99),
    String(bare.summary.errors),
    String(bare.bytes),
    "1.00",
    "",
    ""
  ])
  const body = rows.map((row) => [
    row.name,
    row.summary.requestsPerSecond.toFixed(0),
    ms(row.summary.p50),
    ms(row.summary.p99),
    String(row.summary.errors),
    String(row.bytes),
    row.ratio.toFixed(2),
    String(row.baselineBytes),
    row.misses.length === 0 ? "yes" : `no: ${row.misses.join(", ")}`
  ])
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.name}: ${note}`))
  return [columns([header, ...bareRows, ...body], new Set([1, 2, 3, 4, 5, 6, 7])), ...(notes.length === 0 ? [] : ["notes:", ...notes])].join("\n")
}

export interface ServerFacts {
  readonly dataFile: string
  readonly records: number
  readonly startToReadyMs: number
  /** 3 s after ready, then after the last measurement. */
  readonly memoryAfterStart: Memory
  readonly memoryAfterLoad: Memory
}

const heap = (memory: Memory): string => memory.heapUsed === undefined ? "" : `, heap ${mib(memory.heapUsed)}`

export const formatServer = (server: ServerFacts): string => {
  const seconds = server.startToReadyMs / 1000
  const met = (ok: boolean) => ok ? "met" : "not met"
  return [
    `start to ready: ${seconds.toFixed(2)} s for ${server.records} records` +
    ` (≤ ${START_TARGET_RAW_S} s from a raw extract: ${met(seconds <= START_TARGET_RAW_S)};` +
    ` ≤ ${START_TARGET_SNAPSHOT_S} s from a snapshot: ${met(seconds <= START_TARGET_SNAPSHOT_S)})`,
    `resident memory after start: ${mib(server.memoryAfterStart.rss)}${heap(server.memoryAfterStart)}` +
    ` (≤ ${mib(RSS_TARGET_BYTES)}: ${met(server.memoryAfterStart.rss <= RSS_TARGET_BYTES)});` +
    ` after the load: ${mib(server.memoryAfterLoad.rss)}${heap(server.memoryAfterLoad)}; peak ${mib(server.memoryAfterLoad.peakRss)}`
  ].join("\n")
}

export const formatMachine = (machine: Machine): string =>
  `${machine.os}, ${machine.cpus} × ${machine.cpuModel}, ${mib(machine.totalMemoryBytes)}, Node ${machine.node},` +
  ` commit ${machine.commit.slice(0, 10)}${machine.dirty ? " (dirty)" : ""}, load average ${machine.loadAverage.join(" ")}`

/** Writes `content` to bench/results/<ISO timestamp><suffix> and returns the path. */
export const writeResult = async (startedAt: Date, suffix: string, content: string): Promise<string> => {
  await mkdir(RESULTS_DIR, { recursive: true })
  // Colons are not portable in file names.
  const file = join(RESULTS_DIR, `${startedAt.toISOString().replaceAll(":", "-")}${suffix}`)
  await writeFile(file, content)
  return file
}
