import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import type { ProbeSummary } from "../diverse/probe.ts"
import { summarizeLoad } from "./loadedCaller.ts"
import { type FairnessRun, latencyOf, summarizeFairness } from "./report.ts"

describe("latencyOf", () => {
  it("gives the nearest-rank p50 and p99 and the max of the values", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0.01, max: 1000, noNaN: true }), { minLength: 1, maxLength: 300 }), (values) => {
      const sorted = [...values].sort((a, b) => a - b)
      const rank = (p: number) => sorted[Math.ceil(p * sorted.length) - 1]
      const latency = latencyOf(values)
      assert.strictEqual(latency.requests, values.length)
      assert.strictEqual(latency.p50, rank(0.5))
      assert.strictEqual(latency.p99, rank(0.99))
      assert.strictEqual(latency.max, sorted[sorted.length - 1])
    }))
    assert.isNaN(latencyOf([]).p99)
  })
})

describe("summarizeLoad", () => {
  it("gives the 200s, the 429s and the rest per second over the load's time", () => {
    const summary = summarizeLoad({ seconds: 4, statuses: { "200": 10, "429": 4000, "503": 2, "0": 2 }, latencies: Float64Array.from([3, 1, 2]) })
    assert.strictEqual(summary.okPerSecond, 2.5)
    assert.strictEqual(summary.tooManyPerSecond, 1000)
    assert.strictEqual(summary.otherPerSecond, 1)
    assert.strictEqual(summary.p50, 2)
    assert.strictEqual(summary.p99, 3)
  })
})

const probes = (p99: number, max: number, failures = 0): ProbeSummary => ({ probes: 100, failures, p50: 1, p99, max })
const load = { seconds: 10, statuses: { "200": 30, "429": 50_000 }, okPerSecond: 3, tooManyPerSecond: 5000, otherPerSecond: 0, p50: 40, p99: 90 }

const run = (unloadedP99: number, loadedP99: number, probeP99 = 5, probeMax = 20, statuses: Record<string, number> = { "200": 150 }): FairnessRun => ({
  startToReadyMs: 1000,
  unloaded: { measured: { requests: 150, p50: 1, p99: unloadedP99, max: unloadedP99 * 2 }, statuses, probes: probes(2, 8) },
  loaded: { measured: { requests: 150, p50: 2, p99: loadedP99, max: loadedP99 * 2 }, statuses, probes: probes(probeP99, probeMax), loadedCaller: load }
})

describe("summarizeFairness", () => {
  it("holds the median of the runs' p99 ratios to 2 (issue 24 item 5), and the probes under load to 10 and 50 ms", () => {
    // Ratios 2, 4 and 1.5: the median is 2, met; the medians of the p99s alone would give 20 / 10.
    const met = summarizeFairness([run(10, 20), run(5, 20), run(20, 30)])
    assert.strictEqual(met.ratio, 2)
    assert.strictEqual(met.loaded.measured.p99, 20)
    assert.deepStrictEqual(met.misses, [])
    assert.strictEqual(met.loaded.loadedCaller.tooManyPerSecond, 5000)
    assert.deepStrictEqual(met.unloaded.statuses, { "200": 450 })

    assert.deepStrictEqual(summarizeFairness([run(10, 20.5)]).misses, ["list p99 > 2× unloaded"])
    assert.deepStrictEqual(summarizeFairness([run(10, 10, 10.5, 51)]).misses, ["probe p99 > 10", "probe max > 50"])
    assert.deepStrictEqual(summarizeFairness([run(10, 10, 5, 20, { "200": 140, "429": 1 })]).misses, ["the measured caller had answers other than 200"])
  })
})
