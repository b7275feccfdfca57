/**
 * `npm run bench -- --scaling`: start time, memory and the heaviest queries at growing sizes, as a
 * Markdown table and an SVG chart (plus the JSON) under bench/results/.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { measureSeries, type SeriesOptions, type Summary } from "./load.ts"
import { ensureExtract, memoryOf, startApi, stop } from "./processes.ts"
import { formatMachine, type Machine, writeResult } from "./report.ts"
import { REPARTITION_RACE, SEARCH_ONE_LETTER } from "./routes.ts"

export const SCALING_COUNTS = [500_000, 1_000_000, 2_000_000, 4_450_000]

export interface ScalingOptions extends SeriesOptions {
  readonly seed: number
  readonly counts: ReadonlyArray<number>
  readonly serverEnv: Readonly<Record<string, string>>
}

interface Point {
  readonly records: number
  readonly startToReadyS: number
  readonly rssMiB: number
  readonly repartition: Summary
  readonly search: Summary
}

const QUERIES = [REPARTITION_RACE, SEARCH_ONE_LETTER]

const measurePoint = async (count: number, options: ScalingOptions): Promise<Point> => {
  const file = await ensureExtract(options.seed, count)
  process.stderr.write(`\n${count} records: starting the server\n`)
  const server = await startApi(file, options.serverEnv)
  try {
    await sleep(3000)
    const memory = await memoryOf(server)
    const [repartition, search] = await measureSeries(QUERIES.map((route) => ({ name: route.name, url: server.baseUrl + route.path })), options)
    return { records: count, startToReadyS: server.startToReadyMs / 1000, rssMiB: memory.rss / 2 ** 20, repartition, search }
  } finally {
    await stop(server)
  }
}

const markdown = (machine: Machine, points: ReadonlyArray<Point>): string => {
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  return [
    `# Scaling curve`,
    "",
    formatMachine(machine),
    "",
    row(["records", "start to ready (s)", "RSS (MiB)", ...QUERIES.flatMap((q) => [`${q.path} req/s`, "p50 ms", "p99 ms"])]),
    row(Array.from({ length: 9 }, () => "---:")),
    ...points.map((p) =>
      row([
        String(p.records),
        p.startToReadyS.toFixed(2),
        p.rssMiB.toFixed(0),
        ...[p.repartition, p.search].flatMap((s) => [s.requestsPerSecond.toFixed(0), s.p50.toFixed(2), s.p99.toFixed(2)])
      ])
    ),
    ""
  ].join("\n")
}

/** One small line chart of `values` against the record counts. */
const panel = (title: string, counts: ReadonlyArray<number>, values: ReadonlyArray<number>, x0: number, y0: number): string => {
  const [w, h, pad] = [300, 160, 40]
  const maxX = Math.max(...counts)
  const maxY = Math.max(...values) * 1.1 || 1
  const px = (x: number) => x0 + pad + (x / maxX) * (w - 2 * pad)
  const py = (y: number) => y0 + h - pad - (y / maxY) * (h - 2 * pad)
  const points = counts.map((c, i) => `${px(c).toFixed(1)},${py(values[i]).toFixed(1)}`)
  return [
    `<text x="${x0 + pad}" y="${y0 + 20}" font-weight="bold">${title}</text>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(maxX)}" y2="${py(0)}" stroke="#888"/>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(maxY)}" stroke="#888"/>`,
    `<text x="${px(0) - 4}" y="${py(maxY) + 4}" text-anchor="end">${maxY.toPrecision(3)}</text>`,
    `<text x="${px(0) - 4}" y="${py(0) + 4}" text-anchor="end">0</text>`,
    ...counts.map((c) => `<text x="${px(c)}" y="${py(0) + 16}" text-anchor="middle">${(c / 1e6).toFixed(2)} M</text>`),
    `<polyline points="${points.join(" ")}" fill="none" stroke="#1f6feb" stroke-width="2"/>`,
    ...points.map((p) => `<circle cx="${p.split(",")[0]}" cy="${p.split(",")[1]}" r="3" fill="#1f6feb"/>`)
  ].join("\n")
}

const svg = (points: ReadonlyArray<Point>): string => {
  const counts = points.map((p) => p.records)
  const panels = [
    panel("start to ready (s)", counts, points.map((p) => p.startToReadyS), 0, 0),
    panel("RSS (MiB)", counts, points.map((p) => p.rssMiB), 300, 0),
    panel(`${REPARTITION_RACE.name}: p99 (ms)`, counts, points.map((p) => p.repartition.p99), 0, 160),
    panel(`${SEARCH_ONE_LETTER.name}: p99 (ms)`, counts, points.map((p) => p.search.p99), 300, 160)
  ]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="320" font-family="sans-serif" font-size="11">\n${panels.join("\n")}\n</svg>\n`
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
