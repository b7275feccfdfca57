/**
 * Telemetry (design 3): what the private listener publishes at `/metrics` as Prometheus text
 * (exposition format 0.0.4). The figures are Effect `Metric`s held in this process's own metric
 * registry and written out by `PrometheusMetrics` of `effect/observability`.
 *
 * Recording is meant for the hot path (the front door records outside any fiber): the series of a
 * (route, status) pair is made once, then each request is two synchronous `updateUnsafe` calls on
 * that series, with no allocation. Gauges and counts kept elsewhere are read when the text is
 * rendered.
 *
 * Nothing here is served on the public port.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import { PrometheusMetrics } from "effect/observability"
import { monitorEventLoopDelay } from "node:perf_hooks"

/** Latency buckets, in seconds (upper bounds, `+Inf` implied). */
export const LATENCY_BUCKETS: ReadonlyArray<number> = [
  0.0005,
  0.001,
  0.002,
  0.005,
  0.01,
  0.02,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10
]

/** Why a 503 was answered. */
export type UnavailableReason = "queue_full" | "queue_timeout" | "run_timeout" | "no_data" | "export_limit"
const UNAVAILABLE_REASONS: ReadonlyArray<UnavailableReason> = ["queue_full", "queue_timeout", "run_timeout", "no_data", "export_limit"]

const REQUESTS = "equides_http_requests_total"
const REQUESTS_HELP = "Requests answered on the public port, by route template and status."
const DURATION = "equides_http_request_duration_seconds"
const DURATION_HELP = "Time from the request's admission (in the front door, or in the pipeline when no front door ran) to its answer being written, by route template."
const EXECUTION = "equides_execution_duration_seconds"
const EXECUTION_HELP =
  "Time an execution ran (in its query worker, or in the server's thread with WORKERS=0), by family: an API endpoint or explorer/<page>. " +
  "What the quota's execution costs are measured from (1 unit per 0.5 ms)."

interface RouteSeries {
  readonly latency: Metric.Histogram<number>
  readonly statuses: Map<number, Metric.Counter<number>>
}

/** What is read from the process once per scrape, so that every gauge of one scrape agrees. */
interface ProcessSample {
  readonly loop: { readonly mean: number; readonly p50: number; readonly p99: number; readonly max: number }
  readonly memory: NodeJS.MemoryUsage
}

/** A read-only series: its value comes from `get` alone. */
const ignore = (): void => undefined

const LOOP_HELP = "Event-loop delay since the previous scrape (perf_hooks monitorEventLoopDelay)."

export class Registry {
  /** Where the series live: this registry's own, so that two servers in one process (tests) never share counts. */
  readonly metrics: Metric.MetricRegistry = new Map()
  // The attribute reference is set, not left to its default, so that each update finds it in one lookup.
  private readonly context: Context.Context<never> = Context.make(Metric.MetricRegistry, this.metrics).pipe(
    Context.add(Metric.CurrentMetricAttributes, {})
  )
  private readonly routes = new Map<string, RouteSeries>()
  private readonly executions = new Map<string, Metric.Histogram<number>>()
  private readonly notModified = Metric.counter("equides_http_not_modified_total", {
    description: "304 answers (If-None-Match matched; nothing executed)."
  })
  private readonly rateLimited = Metric.counter("equides_http_rate_limited_total", { description: "429 answers (quota exhausted)." })
  private readonly unavailable = new Map(
    UNAVAILABLE_REASONS.map((reason) => [
      reason,
      Metric.counter("equides_http_unavailable_total", { description: "503 answers, by reason.", attributes: { reason } })
    ])
  )
  private readonly rows = Metric.gauge("equides_dataset_rows", { description: "Records loaded in memory." })
  private readonly loadDuration = Metric.gauge("equides_dataset_load_duration_seconds", {
    description: "Time taken to load the extract at start."
  })
  private readonly loop = monitorEventLoopDelay({ resolution: 10 })
  private sample: ProcessSample | undefined

  constructor() {
    this.loop.enable()
    // Present from the first scrape, at zero (or NaN: not loaded yet).
    this.notModified.updateUnsafe(0, this.context)
    this.rateLimited.updateUnsafe(0, this.context)
    for (const counter of this.unavailable.values()) counter.updateUnsafe(0, this.context)
    this.rows.updateUnsafe(0, this.context)
    this.loadDuration.updateUnsafe(Number.NaN, this.context)
    const seconds = (nanos: number) => (Number.isFinite(nanos) ? nanos / 1e9 : 0)
    const lag = (name: string, read: (loop: ProcessSample["loop"]) => number) =>
      this.gauge(name, LOOP_HELP, () => seconds(read(this.current().loop)))
    lag("nodejs_eventloop_lag_mean_seconds", (loop) => loop.mean)
    lag("nodejs_eventloop_lag_p50_seconds", (loop) => loop.p50)
    lag("nodejs_eventloop_lag_p99_seconds", (loop) => loop.p99)
    lag("nodejs_eventloop_lag_max_seconds", (loop) => loop.max)
    const memory = (name: string, help: string, read: (memory: NodeJS.MemoryUsage) => number) =>
      this.gauge(name, help, () => read(this.current().memory))
    memory("process_resident_memory_bytes", "Resident set size.", (m) => m.rss)
    memory("nodejs_heap_size_total_bytes", "V8 heap allocated.", (m) => m.heapTotal)
    memory("nodejs_heap_size_used_bytes", "V8 heap in use.", (m) => m.heapUsed)
    memory("nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects (buffers).", (m) => m.external)
    memory("nodejs_array_buffers_bytes", "Memory of ArrayBuffers and SharedArrayBuffers.", (m) => m.arrayBuffers)
  }

  /** One answered request: its route template (or `unmatched`), status and duration. */
  record(route: string, status: number, seconds: number): void {
    let series = this.routes.get(route)
    if (series === undefined) {
      series = {
        latency: Metric.histogram(DURATION, { description: DURATION_HELP, boundaries: LATENCY_BUCKETS, attributes: { route } }),
        statuses: new Map()
      }
      this.routes.set(route, series)
    }
    let requests = series.statuses.get(status)
    if (requests === undefined) {
      requests = Metric.counter(REQUESTS, { description: REQUESTS_HELP, attributes: { route, status: String(status) } })
      series.statuses.set(status, requests)
    }
    requests.updateUnsafe(1, this.context)
    series.latency.updateUnsafe(seconds, this.context)
    if (status === 304) this.notModified.updateUnsafe(1, this.context)
    else if (status === 429) this.rateLimited.updateUnsafe(1, this.context)
  }

  /** One execution's run time, by family (`execution/work.ts` `familyOf`); waiting for a worker not included. */
  recordExecution(family: string, seconds: number): void {
    let series = this.executions.get(family)
    if (series === undefined) {
      series = Metric.histogram(EXECUTION, { description: EXECUTION_HELP, boundaries: LATENCY_BUCKETS, attributes: { family } })
      this.executions.set(family, series)
    }
    series.updateUnsafe(seconds, this.context)
  }

  /** A 503, by reason (recorded where it is decided). */
  recordUnavailable(reason: UnavailableReason): void {
    this.unavailable.get(reason)!.updateUnsafe(1, this.context)
  }

  set datasetRows(rows: number) {
    this.rows.updateUnsafe(rows, this.context)
  }

  set loadSeconds(seconds: number) {
    this.loadDuration.updateUnsafe(seconds, this.context)
  }

  /** A value read at each scrape (queue length, cache size…); registering a name again replaces the reading. */
  gauge(name: string, help: string, read: () => number): void {
    Metric.registerUnsafe(Metric.gauge(name, { description: help }), this.context, {
      get: () => ({ value: read() }),
      update: ignore,
      modify: ignore
    })
  }

  /** A count kept elsewhere, read at each scrape (`name` ends in `_total`). */
  counter(name: string, help: string, read: () => number): void {
    Metric.registerUnsafe(Metric.counter(name, { description: help }), this.context, {
      get: () => ({ count: read(), incremental: true }),
      update: ignore,
      modify: ignore
    })
  }

  stop(): void {
    this.loop.disable()
  }

  /** The Prometheus text exposition of everything. The event-loop figures cover the time since the last scrape. */
  render(): string {
    const loop = this.loop
    this.sample = {
      loop: { mean: loop.mean, p50: loop.percentile(50), p99: loop.percentile(99), max: loop.max },
      memory: process.memoryUsage()
    }
    loop.reset()
    try {
      return PrometheusMetrics.formatUnsafe(this.context)
    } finally {
      this.sample = undefined
    }
  }

  private current(): ProcessSample {
    return this.sample ?? { loop: { mean: 0, p50: 0, p99: 0, max: 0 }, memory: process.memoryUsage() }
  }
}

/** The process's registry, shared by the public pipeline (which records) and the private listener (which renders). */
export class Telemetry extends Context.Service<Telemetry, Registry>()("@equides/server/Telemetry") {
  /** The event-loop monitor is stopped with the layer. */
  static readonly layer: Layer.Layer<Telemetry> = Layer.effect(
    Telemetry,
    Effect.acquireRelease(Effect.sync(() => new Registry()), (registry) => Effect.sync(() => registry.stop()))
  )
}
