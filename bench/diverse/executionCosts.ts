/**
 * Issue 24 item 5: each route's execution cost measured per family, beside the cost its
 * definition declares (`executionCost(ms)`, 1 quota unit per 0.5 ms of CPU at full scale). After
 * the single executions of a `--diverse` run (one connection, response cache off: every request
 * executes, nothing else runs) the server's `equides_execution_duration_seconds` histogram is read
 * from its `/metrics`, per family; the routes are those that run on the workers (`onWorkers` on
 * their definitions, the family they are timed under). The time is an execution's run time in its
 * worker, with one connection the nearest there is to its CPU; each family's first uses (its first
 * 50 requests, reported apart as latencies) are left out, as the declared costs leave them out.
 */
import { ExecutionCost, executionUnits, OnWorkers, servedPath, UNIT_CPU_MS } from "@equides/domain"
import * as Context from "effect/Context"
import type { HttpApiEndpoint } from "effect/http-api"
import { parsePrometheus } from "../../packages/server/src/testing/prometheus.ts"

export const EXECUTION_HISTOGRAM = "equides_execution_duration_seconds"

/** One family's executions: cumulative counts by upper bound (seconds, `Infinity` last), their sum (seconds) and count. */
export interface Histogram {
  readonly buckets: ReadonlyArray<readonly [number, number]>
  readonly sum: number
  readonly count: number
}

/** The execution histograms of a `/metrics` text, by family. */
export const executionHistograms = (text: string): Record<string, Histogram> => {
  const { samples } = parsePrometheus(text)
  const families: Record<string, { buckets: Array<[number, number]>; sum: number; count: number }> = {}
  const of = (family: string) => (families[family] ??= { buckets: [], sum: 0, count: 0 })
  for (const { name, labels, value } of samples) {
    const family = labels["family"]
    if (family === undefined) continue
    if (name === `${EXECUTION_HISTOGRAM}_bucket`) of(family).buckets.push([labels["le"] === "+Inf" ? Infinity : Number(labels["le"]), value])
    else if (name === `${EXECUTION_HISTOGRAM}_sum`) of(family).sum = value
    else if (name === `${EXECUTION_HISTOGRAM}_count`) of(family).count = value
  }
  for (const histogram of Object.values(families)) histogram.buckets.sort((a, b) => a[0] - b[0])
  return families
}

/** Histograms of several runs (same buckets) added up, by family. */
export const addHistograms = (runs: ReadonlyArray<Readonly<Record<string, Histogram>>>): Record<string, Histogram> => {
  const total: Record<string, Histogram> = {}
  for (const run of runs) {
    for (const [family, histogram] of Object.entries(run)) {
      const known = total[family]
      total[family] = known === undefined ? histogram : {
        buckets: known.buckets.map(([bound, count], i) => [bound, count + (histogram.buckets[i]?.[1] ?? 0)] as const),
        sum: known.sum + histogram.sum,
        count: known.count + histogram.count
      }
    }
  }
  return total
}

/** What `after` counted since `before` (the same server, read later), by family; families with nothing new left out. */
export const subtractHistograms = (
  after: Readonly<Record<string, Histogram>>,
  before: Readonly<Record<string, Histogram>>
): Record<string, Histogram> => {
  const since: Record<string, Histogram> = {}
  for (const [family, histogram] of Object.entries(after)) {
    const known = before[family]
    const count = histogram.count - (known?.count ?? 0)
    if (count === 0) continue
    since[family] = {
      buckets: histogram.buckets.map(([bound, cumulative], i) => [bound, cumulative - (known?.buckets[i]?.[1] ?? 0)] as const),
      sum: histogram.sum - (known?.sum ?? 0),
      count
    }
  }
  return since
}

/**
 * The `q` quantile of a histogram in seconds, as Prometheus's `histogram_quantile` estimates it:
 * linear within the bucket that holds it (from 0 for the first), the last finite bound when it
 * falls in `+Inf`; NaN without observations.
 */
export const quantileOf = (histogram: Histogram, q: number): number => {
  if (histogram.count === 0) return Number.NaN
  const rank = q * histogram.count
  let lower = 0
  let below = 0
  for (const [bound, cumulative] of histogram.buckets) {
    if (cumulative >= rank) {
      if (bound === Infinity) return lower
      return lower + (bound - lower) * ((rank - below) / (cumulative - below || 1))
    }
    lower = bound
    below = cumulative
  }
  return lower
}

export interface CostRow {
  readonly route: string
  readonly family: string
  /** Declared on its definition, ms (0: none, the bytes rule alone). */
  readonly declaredMs: number
  readonly declaredUnits: number
  readonly executions: number
  /** Measured, ms (NaN: not measured). */
  readonly meanMs: number
  readonly p99Ms: number
  /** Units the measured mean implies (1 per 0.5 ms, at least 1). */
  readonly measuredUnits: number
  /** Declared over measured mean, each at least what one unit pays for (0.5 ms); off when outside [1/2, 2]. */
  readonly ratio: number
  readonly off: boolean
}

/** Past this factor either way, a declared cost is flagged. */
export const OFF_BY = 2

/** One row per route of `endpoints` that runs on the workers, in the `Api`'s order. */
export const costRows = (endpoints: ReadonlyArray<HttpApiEndpoint.Top>, histograms: Readonly<Record<string, Histogram>>): Array<CostRow> =>
  endpoints.flatMap((endpoint) => {
    const family = Context.get(endpoint.annotations, OnWorkers)
    if (family === undefined) return []
    const declaredMs = Context.get(endpoint.annotations, ExecutionCost)
    const histogram = histograms[family]
    const executions = histogram?.count ?? 0
    const meanMs = executions === 0 ? Number.NaN : (histogram!.sum / executions) * 1000
    const p99Ms = histogram === undefined ? Number.NaN : quantileOf(histogram, 0.99) * 1000
    // No request costs less than one unit: below what it pays for, declared and measured are the same price.
    const ratio = Math.max(declaredMs, UNIT_CPU_MS) / Math.max(meanMs, UNIT_CPU_MS)
    return [{
      route: servedPath(endpoint.path),
      family,
      declaredMs,
      declaredUnits: executionUnits(declaredMs),
      executions,
      meanMs,
      p99Ms,
      measuredUnits: executions === 0 ? Number.NaN : executionUnits(meanMs),
      ratio,
      off: Number.isFinite(ratio) && (ratio > OFF_BY || ratio < 1 / OFF_BY)
    }]
  })

const ms = (value: number) => (Number.isNaN(value) ? "—" : value < 10 ? value.toFixed(2) : value.toFixed(1))

/** The report: one line per route, flagged where the declared cost is off by more than 2×. */
export const formatCosts = (rows: ReadonlyArray<CostRow>): string => {
  const header = ["route", "family", "declared ms", "units", "executions", "mean ms", "p99 ms", "units measured", ""]
  const lines = rows.map((row) => [
    row.route,
    row.family,
    row.declaredMs > 0 ? ms(row.declaredMs) : "none",
    String(row.declaredUnits),
    String(row.executions),
    ms(row.meanMs),
    ms(row.p99Ms),
    Number.isNaN(row.measuredUnits) ? "—" : String(row.measuredUnits),
    row.executions === 0 ? "not measured" : row.off ? `OFF ${row.ratio > 1 ? `declared ${row.ratio.toFixed(1)}× the mean` : `mean ${(1 / row.ratio).toFixed(1)}× declared`}` : ""
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)))
  const numeric = (i: number) => i >= 2 && i < header.length - 1
  const render = (cells: ReadonlyArray<string>) => cells.map((cell, i) => (numeric(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ").trimEnd()
  return [render(header), ...lines.map(render)].join("\n")
}
