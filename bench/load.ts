/**
 * One load measurement with autocannon: a fixed number of connections hammering one URL for a
 * fixed time. autocannon's own latency histogram has a 1 ms resolution and keeps only 2xx
 * responses, so latencies are recorded here from its `response` event (sub-millisecond, 2xx and
 * 304 alike).
 */
import autocannon from "autocannon"

export interface LoadOptions {
  readonly connections: number
  /** Seconds. */
  readonly duration: number
  readonly headers?: Readonly<Record<string, string>>
}

export interface Measurement {
  readonly requestsPerSecond: number
  /** Milliseconds, over successful (2xx and 304) responses. */
  readonly p50: number
  readonly p99: number
  /** Responses received, per status code. */
  readonly statuses: Readonly<Record<string, number>>
  /** Responses other than 2xx and 304, plus socket errors and timeouts. */
  readonly errors: number
}

const succeeded = (status: number): boolean => (status >= 200 && status < 300) || status === 304

/** The value below which `fraction` of the sorted `values` lie (nearest rank). */
export const percentile = (sorted: Float64Array, fraction: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export const measure = async (url: string, options: LoadOptions): Promise<Measurement> => {
  let latencies = new Float64Array(1 << 16)
  let count = 0
  const instance = autocannon({
    url,
    connections: options.connections,
    duration: options.duration,
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })
  instance.on("response", (_client, status, _bytes, responseTime) => {
    if (!succeeded(status)) return
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2)
      grown.set(latencies)
      latencies = grown
    }
    latencies[count++] = responseTime
  })
  const result = await instance
  const sorted = latencies.subarray(0, count).sort()
  const statuses: Record<string, number> = {}
  let failed = 0
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    statuses[status] = count
    if (!succeeded(Number(status))) failed += count
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    statuses,
    errors: failed + result.errors
  }
}

export interface Summary {
  /** Medians over the runs. */
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  /** Totals over the runs. */
  readonly statuses: Readonly<Record<string, number>>
  readonly errors: number
  readonly runs: ReadonlyArray<Measurement>
}

export const summarize = (runs: ReadonlyArray<Measurement>): Summary => {
  const statuses: Record<string, number> = {}
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count
  }
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    statuses,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    runs
  }
}

export interface Target {
  readonly name: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
}

export interface SeriesOptions {
  readonly connections: number
  /** Seconds per measurement. */
  readonly duration: number
  /** Measurements per target; their medians are reported. */
  readonly runs: number
  /** Seconds of unrecorded load on each target before its first measurement (0: none). */
  readonly warmup: number
}

/**
 * Measures every target `runs` times, one target at a time, the runs interleaved (all targets,
 * then all again) so that a passing disturbance of the machine spreads over targets instead of
 * spoiling one. Summaries come back in the order of `targets`.
 */
export const measureSeries = async (targets: ReadonlyArray<Target>, options: SeriesOptions): Promise<Array<Summary>> => {
  const load = (target: Target, duration: number) =>
    measure(target.url, { connections: options.connections, duration, ...(target.headers === undefined ? {} : { headers: target.headers }) })
  if (options.warmup > 0) {
    process.stderr.write(`warming up: ${options.warmup} s on each of ${targets.length} targets\n`)
    for (const target of targets) await load(target, options.warmup)
  }
  const runs = targets.map((): Array<Measurement> => [])
  for (let run = 1; run <= options.runs; run++) {
    for (const [i, target] of targets.entries()) {
      const measurement = await load(target, options.duration)
      runs[i].push(measurement)
      process.stderr.write(
        `run ${run}/${options.runs}  ${target.name.padEnd(28)} ${measurement.requestsPerSecond.toFixed(0).padStart(7)} req/s  p99 ${measurement.p99.toFixed(2)} ms\n`
      )
    }
  }
  return runs.map(summarize)
}
