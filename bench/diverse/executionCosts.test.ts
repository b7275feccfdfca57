import { assert, describe, it } from "@effect/vitest"
import { Api, endpointsOf, OnWorkers } from "@equides/domain"
import * as Context from "effect/Context"
import fc from "fast-check"
import { LATENCY_BUCKETS, Registry } from "../../packages/server/src/telemetry.ts"
import { addHistograms, costRows, executionHistograms, formatCosts, type Histogram, quantileOf, subtractHistograms } from "./executionCosts.ts"

/** Captured from the server's registry (`Registry.render`), the execution histogram's lines and one other series. */
const CAPTURED = `# HELP equides_http_rate_limited_total 429 answers (quota exhausted).
# TYPE equides_http_rate_limited_total counter
equides_http_rate_limited_total 0
# HELP equides_execution_duration_seconds Time an execution ran (in its query worker, or in the server's thread with WORKERS=0), by family: an API endpoint or explorer/<page>. What the quota's execution costs are measured from (1 unit per 0.5 ms).
# TYPE equides_execution_duration_seconds histogram
${[
  ["list", [2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], "0.0026999999999999997", 4],
  ["etalons", [0, 0, 0, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3], "0.04", 3],
  ["explorer/list", [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "0.0015", 1]
].map(([family, counts, sum, count]) =>
  [
    ...["0.0005", "0.001", "0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"].map((le, i) =>
      `equides_execution_duration_seconds_bucket{family="${family}",le="${le}"} ${(counts as Array<number>)[i]}`
    ),
    `equides_execution_duration_seconds_sum{family="${family}"} ${sum}`,
    `equides_execution_duration_seconds_count{family="${family}"} ${count}`
  ].join("\n")
).join("\n")}
`

describe("execution costs measured per family", () => {
  it("reads each family's histogram from the metrics text", () => {
    const histograms = executionHistograms(CAPTURED)
    assert.deepStrictEqual(Object.keys(histograms), ["list", "etalons", "explorer/list"])
    assert.strictEqual(histograms["etalons"].count, 3)
    assert.strictEqual(histograms["etalons"].sum, 0.04)
    assert.deepStrictEqual(histograms["etalons"].buckets.slice(2, 7), [[0.002, 0], [0.005, 1], [0.01, 2], [0.02, 2], [0.05, 3]])
    assert.deepStrictEqual(histograms["list"].buckets.at(-1), [Infinity, 4])
  })

  it("estimates a quantile as histogram_quantile does: linear within its bucket", () => {
    const { etalons, list } = executionHistograms(CAPTURED)
    // 0.99 × 3 = 2.97 of 3 falls in (0.02, 0.05], which holds the third: 0.02 + 0.03 × 0.97.
    assert.closeTo(quantileOf(etalons, 0.99), 0.0491, 1e-9)
    // 0.5 × 4 = 2 falls in (0, 0.0005], which holds two: its upper bound.
    assert.closeTo(quantileOf(list, 0.5), 0.0005, 1e-12)
    assert.isNaN(quantileOf({ buckets: [[Infinity, 0]], sum: 0, count: 0 }, 0.99))
  })

  it("the mean and count of what the server's registry recorded, for any durations; runs add up", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 12, noNaN: true }), { minLength: 1, maxLength: 50 }), (durations) => {
      const registry = new Registry()
      for (const seconds of durations) registry.recordExecution("stats", seconds)
      const histogram = executionHistograms(registry.render())["stats"]
      assert.strictEqual(histogram.count, durations.length)
      assert.closeTo(histogram.sum, durations.reduce((a, b) => a + b, 0), 1e-9)
      // Each bucket counts the durations at most its bound.
      for (const [bound, cumulative] of histogram.buckets) assert.strictEqual(cumulative, durations.filter((d) => d <= bound).length)
      assert.strictEqual(histogram.buckets.length, LATENCY_BUCKETS.length + 1)
      const twice = addHistograms([{ stats: histogram }, { stats: histogram }])["stats"]
      assert.deepStrictEqual(twice, { buckets: histogram.buckets.map(([b, c]) => [b, 2 * c] as const), sum: 2 * histogram.sum, count: 2 * histogram.count })
    }))
  })

  it("what a family counted between two reads of the same server: the first uses left out", () => {
    fc.assert(fc.property(
      fc.array(fc.double({ min: 0, max: 12, noNaN: true }), { maxLength: 30 }),
      fc.array(fc.double({ min: 0, max: 12, noNaN: true }), { maxLength: 30 }),
      (first, rest) => {
        const registry = new Registry()
        for (const seconds of first) registry.recordExecution("list", seconds)
        const before = executionHistograms(registry.render())
        for (const seconds of rest) registry.recordExecution("list", seconds)
        const since = subtractHistograms(executionHistograms(registry.render()), before)
        if (rest.length === 0) return assert.deepStrictEqual(since, {})
        const alone = new Registry()
        for (const seconds of rest) alone.recordExecution("list", seconds)
        const expected = executionHistograms(alone.render())["list"]
        assert.deepStrictEqual(since["list"].buckets, expected.buckets)
        assert.strictEqual(since["list"].count, rest.length)
        assert.closeTo(since["list"].sum, expected.sum, 1e-9)
      }
    ))
  })

  it("judges below one unit's worth (0.5 ms) as one unit: a fast route declaring nothing is not off", () => {
    const one = (meanMs: number): Histogram => ({ buckets: [[0.0005, 10], [Infinity, 10]], sum: (10 * meanMs) / 1000, count: 10 })
    const rows = Object.fromEntries(costRows(endpointsOf(Api), { stats: one(0.02), consanguinite: one(5) }).map((row) => [row.family, row]))
    assert.deepInclude(rows["stats"], { declaredMs: 0, declaredUnits: 1, measuredUnits: 1, ratio: 1, off: false })
    // consanguinite declares 0.5 ms; measured 5 ms: 10× its declared cost.
    assert.deepInclude(rows["consanguinite"], { declaredMs: 0.5, measuredUnits: 10, off: true })
    assert.closeTo(rows["consanguinite"].ratio, 0.1, 1e-9)
    assert.match(formatCosts([rows["consanguinite"]]), /OFF mean 10\.0× declared/)
  })

  it("puts each route on the workers beside its declared cost and flags a declared cost off by more than 2×", () => {
    const rows = costRows(endpointsOf(Api), executionHistograms(CAPTURED))
    const byRoute = Object.fromEntries(rows.map((row) => [row.route, row]))
    // list declares 2 ms (4 units); measured 0.675 ms on average: declared 3× the mean, flagged.
    assert.deepInclude(byRoute["/v1/equides"], { family: "list", declaredMs: 2, declaredUnits: 4, executions: 4, measuredUnits: 2, off: true })
    assert.closeTo(byRoute["/v1/equides"].meanMs, 0.675, 1e-9)
    // etalons declares 5 ms (10 units); measured 13.3 ms in the captured run: past 2× the other way, flagged.
    assert.deepInclude(byRoute["/v1/accouplements/etalons"], { declaredMs: 5, declaredUnits: 10, measuredUnits: 27, off: true })
    // A route on the workers without executions in the run: not measured, not flagged.
    assert.deepInclude(byRoute["/v1/stats"], { family: "stats", executions: 0, off: false })
    // Only routes on the workers; the explorer's pages are not the Api's.
    assert.isUndefined(byRoute["/v1/equides/{id}"])
    assert.strictEqual(rows.length, endpointsOf(Api).filter((endpoint) => Context.get(endpoint.annotations, OnWorkers) !== undefined).length)
    const text = formatCosts(rows)
    assert.match(text, /\/v1\/equides +list +2\.00 +4 +4 +0\.67 +1\.96 +2 +OFF declared 3\.0× the mean/)
    assert.match(text, /\/v1\/stats +stats +none +1 +0 +— +— +— +not measured/)
  })
})
