/**
 * `npm run bench -- --scaling`: start time, memory and the heaviest queries at growing sizes, as a
 * Markdown table and an SVG chart (plus the JSON) under bench/results/.
 *
 * At each size: the server started on the raw extract (through a link in a fresh directory, so no
 * snapshot sits beside it), then on its snapshot (written by the ingest CLI when missing or
 * refused), the queries measured on the latter with the response cache off, so that every request
 * executes the query.
 */
import { mkdtemp, rm, symlink } from "node:fs/promises"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { measureSeries, type SeriesOptions, type Summary } from "./load.ts"
import { type ApiServer, ensureExtract, hasSnapshot, memoryOf, snapshotRefused, startApi, stop, writeSnapshotOf } from "./processes.ts"
import { formatMachine, type Machine, writeResult } from "./report.ts"
import { REPARTITION_RACE, type Route, SEARCH_ONE_LETTER } from "./routes.ts"

export const SCALING_COUNTS = [500_000, 1_000_000, 2_000_000, 4_450_000]

export interface ScalingOptions extends SeriesOptions {
  readonly seed: number
  readonly counts: ReadonlyArray<number>
  readonly serverEnv: Readonly<Record<string, string>>
}

/** The heaviest queries: a whole-set breakdown, a one-letter search, a two-letter name prefix. */
const QUERIES: ReadonlyArray<Route> = [
  REPARTITION_RACE,
  SEARCH_ONE_LETTER,
  { name: "list, nom=MA", path: "/v1/equides?nom=MA", kind: "ordinary" }
]

interface Start {
  readonly seconds: number
  readonly rssMiB: number
}

interface Point {
  readonly records: number
  readonly raw: Start
  readonly snapshot: Start
  readonly queries: ReadonlyArray<Summary>
}

const startOf = async (server: ApiServer): Promise<Start> => {
  await sleep(3000)
  return { seconds: server.startToReadyMs / 1000, rssMiB: (await memoryOf(server)).rss / 2 ** 20 }
}

/** The server on the raw extract, with no snapshot beside it. */
const rawStart = async (file: string, options: ScalingOptions): Promise<Start> => {
  const dir = await mkdtemp(join(tmpdir(), "equides-scaling-"))
  try {
    const link = join(dir, basename(file))
    await symlink(file, link)
    const server = await startApi(link, options.serverEnv)
    try {
      return await startOf(server)
    } finally {
      await stop(server)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The server on the extract's snapshot (written first when missing, rewritten when refused), response cache off. */
const snapshotServer = async (file: string, options: ScalingOptions): Promise<ApiServer> => {
  if (!hasSnapshot(file)) await writeSnapshotOf(file)
  const env = { ...options.serverEnv, RESPONSE_CACHE_MB: "0" }
  const server = await startApi(file, env)
  if (!snapshotRefused(server)) return server
  await stop(server)
  await writeSnapshotOf(file)
  return startApi(file, env)
}

const measurePoint = async (count: number, options: ScalingOptions): Promise<Point> => {
  const file = await ensureExtract(options.seed, count)
  process.stderr.write(`\n${count} records: raw start\n`)
  const raw = await rawStart(file, options)
  process.stderr.write(`${count} records: snapshot start\n`)
  const server = await snapshotServer(file, options)
  try {
    const snapshot = await startOf(server)
    const queries = await measureSeries(QUERIES.map((route) => ({ name: route.name, url: server.baseUrl + route.path })), options)
    return { records: count, raw, snapshot, queries }
  } finally {
    await stop(server)
  }
}

const markdown = (machine: Machine, points: ReadonlyArray<Point>): string => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const header = [
    "records",
    "raw start (s)",
    "RSS (MiB)",
    "snapshot start (s)",
    "RSS (MiB)",
    ...QUERIES.flatMap((q) => [`\`${q.path}\` req/s`, "p50 ms", "p99 ms"])
  ]
  return [
    `# Scaling curve`,
    "",
    formatMachine(machine),
    "",
    "Queries measured with the response cache off (every request executes).",
    "",
    row(header),
    row(header.map(() => "---:")),
    ...points.map((p) =>
      row([
        String(p.records),
        p.raw.seconds.toFixed(2),
        p.raw.rssMiB.toFixed(0),
        p.snapshot.seconds.toFixed(2),
        p.snapshot.rssMiB.toFixed(0),
        ...p.queries.flatMap((s) => [s.requestsPerSecond.toFixed(0), s.p50.toFixed(2), s.p99.toFixed(2)])
      ])
    ),
    ""
  ].join("\n")
}

const PANEL_WIDTH = 300
const PANEL_HEIGHT = 160

/** One small line chart of `values` against the record counts. */
const panel = (title: string, counts: ReadonlyArray<number>, values: ReadonlyArray<number>, x0: number, y0: number): string => {
  const pad = 40
  const maxX = Math.max(...counts)
  const maxY = Math.max(...values) * 1.1 || 1
  const px = (x: number) => x0 + pad + (x / maxX) * (PANEL_WIDTH - 2 * pad)
  const py = (y: number) => y0 + PANEL_HEIGHT - pad - (y / maxY) * (PANEL_HEIGHT - 2 * pad)
  const points = counts.map((c, i) => [px(c).toFixed(1), py(values[i]).toFixed(1)] as const)
  return [
    `<text x="${x0 + pad}" y="${y0 + 20}" font-weight="bold">${title}</text>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(maxX)}" y2="${py(0)}" stroke="#888"/>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(maxY)}" stroke="#888"/>`,
    `<text x="${px(0) - 4}" y="${py(maxY) + 4}" text-anchor="end">${maxY.toPrecision(3)}</text>`,
    `<text x="${px(0) - 4}" y="${py(0) + 4}" text-anchor="end">0</text>`,
    ...counts.map((c) => `<text x="${px(c)}" y="${py(0) + 16}" text-anchor="middle">${(c / 1e6).toFixed(2)} M</text>`),
    `<polyline points="${points.map(([x, y]) => `${x},${y}`).join(" ")}" fill="none" stroke="#1f6feb" stroke-width="2"/>`,
    ...points.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="3" fill="#1f6feb"/>`)
  ].join("\n")
}

const svg = (points: ReadonlyArray<Point>): string => {
  const counts = points.map((p) => p.records)
  const series: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
    ["raw start (s)", points.map((p) => p.raw.seconds)],
    ["snapshot start (s)", points.map((p) => p.snapshot.seconds)],
    ["RSS after snapshot start (MiB)", points.map((p) => p.snapshot.rssMiB)],
    ...QUERIES.map((q, i) => [`${q.name}: p99 (ms)`, points.map((p) => p.queries[i].p99)] as const)
  ]
  const panels = series.map(([title, values], i) => panel(title, counts, values, (i % 2) * PANEL_WIDTH, Math.floor(i / 2) * PANEL_HEIGHT))
  const height = Math.ceil(series.length / 2) * PANEL_HEIGHT
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * PANEL_WIDTH}" height="${height}" font-family="sans-serif" font-size="11">\n${panels.join("\n")}\n</svg>\n`
}

export const runScaling = async (startedAt: Date, machine: Machine, options: ScalingOptions): Promise<void> => {
  const points: Array<Point> = []
  for (const count of options.counts) points.push(await measurePoint(count, options))
  const table = markdown(machine, points)
  process.stdout.write(`\n${table}`)
  const files = [
    await writeResult(startedAt, "-scaling.md", table),
    await writeResult(startedAt, "-scaling.svg", svg(points)),
    await writeResult(startedAt, "-scaling.json", JSON.stringify({ startedAt, machine, options, points }, null, 2))
  ]
  process.stdout.write(`\nwritten: ${files.join(", ")}\n`)
}
