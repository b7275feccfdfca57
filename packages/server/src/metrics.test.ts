/**
 * Telemetry on the private listener: valid Prometheus text (read by a strict parser), requests
 * by route template (never the raw path) and status, latency histograms, 304/429/503 counts,
 * dataset rows, load duration, event-loop lag, memory.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { TestClock } from "effect/testing"
import { serveMetrics } from "./metrics.ts"
import { Registry, Telemetry } from "./telemetry.ts"
import { FAMILY, SIRE, SON } from "./testing/family.ts"
import { parsePrometheus, sampleValue } from "./testing/prometheus.ts"
import { call, raw, rawCall, testServer } from "./testing/server.ts"

describe("parsePrometheus (the test's own reader)", () => {
  it("refuses what the format does not allow", () => {
    const bad = [
      "metric 1",
      "# TYPE metric counter\nmetric{a=\"1\"} x\n",
      "# TYPE metric counter\nmetric{a=1} 1\n",
      "# TYPE metric counter\nmetric 1\nmetric 2\n",
      "# TYPE metric counter\n# TYPE metric counter\nmetric 1\n",
      "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\nh_sum 0\n",
      "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 1\nh_sum 0\n",
      "# TYPE 9bad gauge\n9bad 1\n"
    ]
    for (const text of bad) assert.throws(() => parsePrometheus(text), undefined, undefined, text)
  })

  it("reads a fresh registry", () => {
    const registry = new Registry()
    registry.record("/v1/equides/:id", 200, 0.0012)
    registry.record("/a\"b\\c", 404, 12)
    const exposition = parsePrometheus(registry.render())
    registry.stop()
    assert.strictEqual(sampleValue(exposition, "equides_http_requests_total", { route: "/a\"b\\c", status: "404" }), 1)
    assert.strictEqual(sampleValue(exposition, "equides_http_request_duration_seconds_bucket", { route: "/v1/equides/:id", le: "0.002" }), 1)
    assert.strictEqual(sampleValue(exposition, "equides_http_request_duration_seconds_bucket", { route: "/v1/equides/:id", le: "0.001" }), 0)
  })

  it("keeps the names, help texts, buckets and starting values of the hand-written registry it replaced", () => {
    const registry = new Registry()
    registry.record("/v1/stats", 304, 0.0005)
    registry.record("/v1/stats", 429, 0.25)
    registry.recordUnavailable("queue_full")
    registry.datasetRows = 42
    const text = registry.render()
    registry.stop()
    for (
      const line of [
        "# HELP equides_http_requests_total Requests answered on the public port, by route template and status.",
        "# TYPE equides_http_requests_total counter",
        "# HELP equides_http_request_duration_seconds Time from the request's admission (in the front door, or in the pipeline when no front door ran) to its answer being written, by route template.",
        "# HELP equides_http_not_modified_total 304 answers (If-None-Match matched; nothing executed).",
        "# HELP equides_http_rate_limited_total 429 answers (quota exhausted).",
        "# HELP equides_http_unavailable_total 503 answers, by reason.",
        "# HELP equides_dataset_rows Records loaded in memory.",
        "# HELP equides_dataset_load_duration_seconds Time taken to load the extract at start.",
        "# HELP nodejs_eventloop_lag_p99_seconds Event-loop delay since the previous scrape (perf_hooks monitorEventLoopDelay).",
        "# HELP process_resident_memory_bytes Resident set size.",
        // A value on a bound falls in that bucket (`le`: less than or equal).
        "equides_http_request_duration_seconds_bucket{route=\"/v1/stats\",le=\"0.0005\"} 1",
        "equides_http_request_duration_seconds_bucket{route=\"/v1/stats\",le=\"0.1\"} 1",
        "equides_http_request_duration_seconds_bucket{route=\"/v1/stats\",le=\"0.25\"} 2",
        "equides_http_request_duration_seconds_bucket{route=\"/v1/stats\",le=\"10\"} 2",
        "equides_http_request_duration_seconds_bucket{route=\"/v1/stats\",le=\"+Inf\"} 2",
        "equides_http_request_duration_seconds_sum{route=\"/v1/stats\"} 0.2505",
        "equides_http_requests_total{route=\"/v1/stats\",status=\"304\"} 1",
        "equides_http_not_modified_total 1",
        "equides_http_rate_limited_total 1",
        "equides_http_unavailable_total{reason=\"queue_full\"} 1",
        "equides_http_unavailable_total{reason=\"no_data\"} 0",
        "equides_dataset_rows 42",
        // Not loaded yet.
        "equides_dataset_load_duration_seconds NaN"
      ]
    ) assert.include(text.split("\n"), line)
    assert.strictEqual(text.split("\n").filter((line) => line.startsWith("equides_http_request_duration_seconds_bucket")).length, 15)
  })

  it("replaces a reading registered again under the same name (one family, the last reading)", () => {
    const registry = new Registry()
    registry.gauge("equides_requests_queued", "Requests waiting for a concurrency slot.", () => 1)
    registry.gauge("equides_requests_queued", "Requests waiting for a concurrency slot.", () => 2)
    registry.counter("equides_response_cache_hits_total", "Requests answered from the response cache.", () => 7)
    const exposition = parsePrometheus(registry.render())
    registry.stop()
    assert.strictEqual(sampleValue(exposition, "equides_requests_queued"), 2)
    assert.strictEqual(exposition.types.get("equides_response_cache_hits_total"), "counter")
    assert.strictEqual(sampleValue(exposition, "equides_response_cache_hits_total"), 7)
  })
})

const settings = { rateLimitRate: 50, rateLimitBurst: 6 }

layer(testServer(fromRecords(FAMILY), { settings }))("/metrics", (it) => {
  /** The private listener on a free port, for the duration of one test. */
  const scrape = Effect.gen(function*() {
    const port = yield* serveMetrics(yield* Telemetry, "127.0.0.1", 0)
    const reply = yield* rawCall(`http://127.0.0.1:${port}`, "/metrics")
    assert.strictEqual(reply.status, 200)
    assert.strictEqual(reply.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
    const elsewhere = yield* rawCall(`http://127.0.0.1:${port}`, "/v1/stats")
    assert.strictEqual(elsewhere.status, 404)
    return parsePrometheus(reply.body.toString("utf8"))
  })

  it.effect("publishes valid Prometheus text with requests by route template and status", () =>
    Effect.gen(function*() {
      const stats = yield* call("/v1/stats")
      yield* call("/v1/stats", { headers: { "if-none-match": stats.headers["etag"] } })
      yield* call(`/v1/equides/${SIRE}`)
      yield* call(`/v1/equides/${SON}`)
      yield* call("/v1/equides/inconnu")
      yield* call("/nulle-part/12345")
      for (let i = 0; i < 3; i++) yield* call("/v1/referentiels/races") // 5 units each, burst 6
      const exposition = yield* scrape

      const requests = (route: string, status: string) => sampleValue(exposition, "equides_http_requests_total", { route, status })
      assert.strictEqual(requests("/v1/stats", "200"), 1)
      assert.strictEqual(requests("/v1/stats", "304"), 1)
      assert.strictEqual(requests("/v1/equides/:id", "200"), 2)
      assert.strictEqual(requests("/v1/equides/:id", "404"), 1)
      assert.strictEqual(requests("unmatched", "404"), 1)
      assert.isAtLeast(requests("/v1/referentiels/:dimension", "429") ?? 0, 1)
      // Never a raw path, an id or a query in a label.
      for (const sample of exposition.samples) {
        assert.notInclude(sample.labels["route"] ?? "", SIRE)
        assert.notInclude(sample.labels["route"] ?? "", "12345")
      }

      assert.strictEqual(exposition.types.get("equides_http_request_duration_seconds"), "histogram")
      assert.strictEqual(sampleValue(exposition, "equides_http_request_duration_seconds_count", { route: "/v1/equides/:id" }), 3)
      assert.strictEqual(sampleValue(exposition, "equides_http_not_modified_total"), 1)
      assert.isAtLeast(sampleValue(exposition, "equides_http_rate_limited_total") ?? 0, 1)
      assert.strictEqual(sampleValue(exposition, "equides_http_unavailable_total", { reason: "run_timeout" }), 0)
      assert.strictEqual(sampleValue(exposition, "equides_dataset_rows"), FAMILY.length)
      for (
        const gauge of [
          "equides_dataset_load_duration_seconds",
          "equides_requests_in_flight",
          "equides_requests_queued",
          "equides_response_cache_bytes",
          "nodejs_eventloop_lag_p99_seconds",
          "nodejs_eventloop_lag_max_seconds",
          "process_resident_memory_bytes",
          "nodejs_heap_size_used_bytes"
        ]
      ) {
        assert.strictEqual(exposition.types.get(gauge), "gauge", gauge)
        assert.isDefined(sampleValue(exposition, gauge), gauge)
      }
      assert.isAbove(sampleValue(exposition, "process_resident_memory_bytes")!, 0)
    }))

  it.effect("is absent from the public port", () =>
    Effect.gen(function*() {
      yield* TestClock.adjust("1 second") // the quota spent above comes back
      const reply = yield* raw("/metrics")
      assert.strictEqual(reply.status, 404)
      assert.strictEqual(reply.headers["content-type"], "application/problem+json")
    }))
})
