/**
 * One load measurement with autocannon: a fixed number of connections hammering one URL for a
 * fixed time, or walking a list of paths, each sent once. autocannon's own latency histogram has a
 * 1 ms resolution and keeps only 2xx responses, so latencies are recorded here from its `response`
 * event (sub-millisecond, 2xx and 304 alike).
 */
import autocannon, { type Client, type Request } from "autocannon"

export interface LoadOptions {
  readonly connections: number
  /** Seconds. */
  readonly duration: number
  readonly headers?: Readonly<Record<string, string>>
  /**
   * Paths (with their query) to send instead of `url`'s own, each exactly once, in order over the
   * connections: the measurement ends when the last one is answered or the duration is over,
   * whichever comes first.
   */
  readonly paths?: ReadonlyArray<string>
}

export interface Measurement {
  readonly requestsPerSecond: number
  /** Responses received. */
  readonly requests: number
  /** Milliseconds, over successful (2xx and 304) responses. */
  readonly p50: number
  readonly p99: number
  readonly max: number
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

/**
 * autocannon's options to send each of `paths` once: connection i sends paths i, i + n, i + 2n…
 * (n connections), its requests built once before the run. (A `setupRequest` rebuilding the request
 * each time costs the client a third of its throughput, and autocannon shares a `requests` option's
 * objects between connections: every connection's first request would be the same.) `amount`
 * gives connection i exactly as many requests as it holds paths.
 */
const walking = (paths: ReadonlyArray<string>, connections: number) => {
  const used = Math.min(connections, paths.length)
  let created = 0
  return {
    connections: used,
    amount: paths.length,
    setupClient: (client: Client) => {
      const own: Array<Request> = []
      for (let i = created++; i < paths.length; i += used) own.push({ method: "GET", path: paths[i] })
      client.setRequests(own)
    }
  }
}

export const measure = async (url: string, options: LoadOptions): Promise<Measurement> => {
  let latencies = new Float64Array(1 << 16)
  let count = 0
  let lastResponseAt = 0
  const paths = options.paths
  const instance = autocannon({
    url,
    connections: options.connections,
    duration: options.duration,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(paths === undefined ? {} : walking(paths, options.connections))
  })
  // With `amount`, autocannon ignores the duration: stop it by hand.
  const timer = paths === undefined ? undefined : setTimeout(() => instance.stop(), options.duration * 1000)
  const startedAt = performance.now()
  instance.on("response", (_client, status, _bytes, responseTime) => {
    lastResponseAt = performance.now()
    if (!succeeded(status)) return
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2)
      grown.set(latencies)
      latencies = grown
    }
    latencies[count++] = responseTime
  })
  const result = await instance
  clearTimeout(timer)
  const sorted = latencies.subarray(0, count).sort()
  const statuses: Record<string, number> = {}
  let failed = 0
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    statuses[status] = count
    if (!succeeded(Number(status))) failed += count
  }
  // autocannon ends a run on its next one-second tick: a walk that ran out of paths is timed to
  // its last response, not to that tick.
  const seconds = paths === undefined ? result.duration : (lastResponseAt - startedAt) / 1000
  return {
    requestsPerSecond: result.requests.total / seconds,
    requests: result.requests.total,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: count === 0 ? Number.NaN : sorted[count - 1],
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
