/**
 * Telemetry (design 3): what the private listener publishes at `/metrics` as Prometheus text
 * (exposition format 0.0.4). Recording is meant for the hot path: plain counters in a Map keyed by
 * route template and status, one fixed-bucket latency histogram per route, no allocation per
 * request once a (route, status) pair has been seen. Gauges are read when the text is rendered.
 *
 * Nothing here is served on the public port.
 */
import { Context, Effect, Layer } from "effect"
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
export type UnavailableReason = "queue_full" | "queue_timeout" | "run_timeout" | "no_data"

class Histogram {
  readonly counts = new Float64Array(LATENCY_BUCKETS.length + 1)
  sum = 0
  count = 0
  observe(seconds: number): void {
    let i = 0
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++
    this.counts[i]++
    this.sum += seconds
    this.count++
  }
}

interface Reading {
  readonly name: string
  readonly type: "counter" | "gauge"
  readonly help: string
  readonly read: () => number
}

/** Label values are escaped as the exposition format wants: backslash, double quote, newline. */
const escapeLabel = (value: string): string => value.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, "\\n")

/** A number as Prometheus writes it. */
const formatNumber = (value: number): string =>
  Number.isNaN(value) ? "NaN" : value === Infinity ? "+Inf" : value === -Infinity ? "-Inf" : String(value)

export class Registry {
  /** Per route template: its latency histogram and its count per status. */
  private readonly routes = new Map<string, { readonly latency: Histogram; readonly statuses: Map<number, number> }>()
  private readonly unavailable = new Map<UnavailableReason, number>()
  private readonly readings: Array<Reading> = []
  notModified = 0
  rateLimited = 0
  datasetRows = 0
  loadSeconds = Number.NaN
  private readonly loop = monitorEventLoopDelay({ resolution: 10 })

  constructor() {
    this.loop.enable()
  }

  /** One answered request: its route template (or `unmatched`), status and duration. */
  record(route: string, status: number, seconds: number): void {
    let entry = this.routes.get(route)
    if (entry === undefined) {
      entry = { latency: new Histogram(), statuses: new Map() }
      this.routes.set(route, entry)
    }
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1)
    entry.latency.observe(seconds)
    if (status === 304) this.notModified++
    else if (status === 429) this.rateLimited++
  }

  /** A 503, by reason (recorded where it is decided). */
  recordUnavailable(reason: UnavailableReason): void {
    this.unavailable.set(reason, (this.unavailable.get(reason) ?? 0) + 1)
  }

  /** A value read at each scrape (queue length, cache size…). */
  gauge(name: string, help: string, read: () => number): void {
    this.readings.push({ name, type: "gauge", help, read })
  }

  /** A count kept elsewhere, read at each scrape (`name` ends in `_total`). */
  counter(name: string, help: string, read: () => number): void {
    this.readings.push({ name, type: "counter", help, read })
  }

  stop(): void {
    this.loop.disable()
  }

  /** The Prometheus text exposition of everything. The event-loop figures cover the time since the last scrape. */
  render(): string {
    const lines: Array<string> = []
    const family = (name: string, type: "counter" | "gauge" | "histogram", help: string) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    }

    family("equides_http_requests_total", "counter", "Requests answered on the public port, by route template and status.")
    for (const [route, { statuses }] of this.routes) {
      for (const [status, count] of statuses) {
        lines.push(`equides_http_requests_total{route="${escapeLabel(route)}",status="${status}"} ${count}`)
      }
    }

    family("equides_http_request_duration_seconds", "histogram", "Time from the request entering the pipeline to its response, by route template.")
    for (const [route, { latency: histogram }] of this.routes) {
      const label = escapeLabel(route)
      let cumulative = 0
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        cumulative += histogram.counts[i]
        lines.push(`equides_http_request_duration_seconds_bucket{route="${label}",le="${LATENCY_BUCKETS[i]}"} ${cumulative}`)
      }
      lines.push(`equides_http_request_duration_seconds_bucket{route="${label}",le="+Inf"} ${histogram.count}`)
      lines.push(`equides_http_request_duration_seconds_sum{route="${label}"} ${formatNumber(histogram.sum)}`)
      lines.push(`equides_http_request_duration_seconds_count{route="${label}"} ${histogram.count}`)
    }

    family("equides_http_not_modified_total", "counter", "304 answers (If-None-Match matched; nothing executed).")
    lines.push(`equides_http_not_modified_total ${this.notModified}`)
    family("equides_http_rate_limited_total", "counter", "429 answers (quota exhausted).")
    lines.push(`equides_http_rate_limited_total ${this.rateLimited}`)
    family("equides_http_unavailable_total", "counter", "503 answers, by reason.")
    for (const reason of ["queue_full", "queue_timeout", "run_timeout", "no_data"] as const) {
      lines.push(`equides_http_unavailable_total{reason="${reason}"} ${this.unavailable.get(reason) ?? 0}`)
    }

    family("equides_dataset_rows", "gauge", "Records loaded in memory.")
    lines.push(`equides_dataset_rows ${this.datasetRows}`)
    family("equides_dataset_load_duration_seconds", "gauge", "Time taken to load the extract at start.")
    lines.push(`equides_dataset_load_duration_seconds ${formatNumber(this.loadSeconds)}`)

    for (const reading of this.readings) {
      family(reading.name, reading.type, reading.help)
      lines.push(`${reading.name} ${formatNumber(reading.read())}`)
    }

    const loop = this.loop
    const seconds = (nanos: number) => formatNumber(Number.isFinite(nanos) ? nanos / 1e9 : 0)
    const lag: ReadonlyArray<readonly [string, number]> = [
      ["nodejs_eventloop_lag_mean_seconds", loop.mean],
      ["nodejs_eventloop_lag_p50_seconds", loop.percentile(50)],
      ["nodejs_eventloop_lag_p99_seconds", loop.percentile(99)],
      ["nodejs_eventloop_lag_max_seconds", loop.max]
    ]
    for (const [name, nanos] of lag) {
      family(name, "gauge", "Event-loop delay since the previous scrape (perf_hooks monitorEventLoopDelay).")
      lines.push(`${name} ${seconds(nanos)}`)
    }
    loop.reset()

    const memory = process.memoryUsage()
    const memoryGauges: ReadonlyArray<readonly [string, string, number]> = [
      ["process_resident_memory_bytes", "Resident set size.", memory.rss],
      ["nodejs_heap_size_total_bytes", "V8 heap allocated.", memory.heapTotal],
      ["nodejs_heap_size_used_bytes", "V8 heap in use.", memory.heapUsed],
      ["nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects (buffers).", memory.external],
      ["nodejs_array_buffers_bytes", "Memory of ArrayBuffers and SharedArrayBuffers.", memory.arrayBuffers]
    ]
    for (const [name, help, value] of memoryGauges) {
      family(name, "gauge", help)
      lines.push(`${name} ${value}`)
    }
    return lines.join("\n") + "\n"
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
