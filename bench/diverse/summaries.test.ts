import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { median, percentile } from "../load.ts"
import type { Family, FamilyName } from "./corpora.ts"
import { bareSizes, type Single, summarizeSingle } from "./measureRun.ts"
import { chanceFirstUseFailures, firstUseVerdict, medianSingle, rssAllowance } from "./report.ts"
import { combine, mixed } from "./soak.ts"

const executed = fc.array(
  fc.record({ path: fc.stringMatching(/^\/[a-z]{1,6}$/), status: fc.constantFrom(200, 200, 200, 304, 400, 500, 0), bytes: fc.nat(5000), ms: fc.double({ min: 0.01, max: 500, noNaN: true }), clientGcMs: fc.constant(0) }),
  { minLength: 1, maxLength: 400 }
)

/** Nearest-rank percentile of a naive sorted copy (the reference the summaries are held to). */
const naivePercentile = (values: ReadonlyArray<number>, p: number): number => percentile(Float64Array.from(values).sort(), p)

describe("summarizeSingle", () => {
  it("keeps the first 50 requests apart (first use), counts non-2xx as errors, and takes percentiles over the rest", () => {
    fc.assert(fc.property(executed, (runs) => {
      const summary = summarizeSingle(runs)
      const first = runs.slice(0, 50).map((r) => r.ms)
      const warm = runs.slice(50).map((r) => r.ms)
      assert.strictEqual(summary.requests, runs.length)
      assert.strictEqual(summary.first, runs[0].ms)
      assert.strictEqual(summary.firstUse.requests, Math.min(50, runs.length))
      assert.strictEqual(summary.firstUse.max, Math.max(...first))
      assert.strictEqual(summary.firstUse.p50, naivePercentile(first, 0.5))
      // The first use's three slowest, each with its place among the first 50: the slowest first, each the ms of the request at its place.
      const slowest = summary.firstUse.slowest ?? []
      assert.strictEqual(slowest.length, Math.min(3, first.length))
      assert.deepStrictEqual(slowest.map((s) => s.ms), [...first].sort((a, b) => b - a).slice(0, 3))
      for (const s of slowest) assert.deepStrictEqual([s.index < 50, runs[s.index].ms, runs[s.index].path], [true, s.ms, s.path])
      assert.strictEqual(new Set(slowest.map((s) => s.index)).size, slowest.length)
      assert.strictEqual(summary.errors, runs.filter((r) => r.status < 200 || r.status >= 300).length)
      if (warm.length === 0) {
        assert.isNaN(summary.p99)
        assert.isNaN(summary.max)
      } else {
        assert.strictEqual(summary.p99, naivePercentile(warm, 0.99))
        assert.strictEqual(summary.max, Math.max(...warm))
      }
      // The warm requests in runs of 50, in order: the share whose slowest is over 3× the warm p99.
      const runsOf50 = Array.from({ length: Math.floor(warm.length / 50) }, (_, k) => warm.slice(k * 50, k * 50 + 50))
      if (runsOf50.length === 0) assert.isNaN(summary.warmRunsOver)
      else assert.strictEqual(summary.warmRunsOver, runsOf50.filter((run) => Math.max(...run) > 3 * summary.p99).length / runsOf50.length)
      assert.strictEqual(summary.bytes, median(runs.map((r) => r.bytes)))
      assert.deepStrictEqual(summary.slowest.map((s) => s.ms), [...runs.map((r) => r.ms)].sort((a, b) => b - a).slice(0, 3))
    }))
  })
})

const single = (p99: number, firstMax: number, errors = 0): Single => ({
  requests: 100,
  errors,
  failedPaths: [],
  first: firstMax,
  firstUse: { requests: 50, p50: 1, max: firstMax },
  warmRunsOver: 0.25,
  p50: 1,
  p99,
  max: p99 * 2,
  bytes: 100,
  slowest: [{ path: `/${p99}`, ms: p99 * 2 }]
})

describe("medianSingle", () => {
  it("takes medians over runs, first use included, and adds up the errors", () => {
    const summary = medianSingle([single(5, 40, 0), single(50, 10, 1), single(7, 20, 2)])
    assert.strictEqual(summary.p99, 7)
    assert.strictEqual(summary.max, 14)
    assert.strictEqual(summary.firstUse.max, 20)
    assert.strictEqual(summary.errors, 3)
    assert.deepStrictEqual(summary.slowest.map((s) => s.path), ["/50", "/7", "/5"])
  })
})

describe("firstUseVerdict", () => {
  it("holds the first use's slowest request to 3× the warm p99 (issue 24), and says nothing without warm requests", () => {
    assert.strictEqual(firstUseVerdict(single(10, 30)), "yes")
    assert.strictEqual(firstUseVerdict(single(10, 30.5)), "no: max > 3× p99; so do 25% of warm 50s")
    assert.strictEqual(firstUseVerdict({ ...single(10, 30.5), warmRunsOver: Number.NaN }), "no: max > 3× p99")
    assert.strictEqual(firstUseVerdict(single(Number.NaN, 30)), "")
  })
})

describe("chanceFirstUseFailures", () => {
  it("adds each family's chance that more than half of the runs fail as often as its warm runs of 50 do", () => {
    const warm = (share: number): Single => ({ ...single(1, 1), warmRunsOver: share })
    // One run: the share itself; three: 3p²(1 − p) + p³.
    assert.closeTo(chanceFirstUseFailures([warm(0.1)], 1), 0.1, 1e-12)
    assert.closeTo(chanceFirstUseFailures([warm(0.1)], 3), 3 * 0.01 * 0.9 + 0.001, 1e-12)
    assert.closeTo(chanceFirstUseFailures([warm(0.1), warm(0.5), warm(0)], 3), 0.028 + 0.5, 1e-12)
    assert.closeTo(chanceFirstUseFailures([warm(1)], 5), 1, 1e-12)
    // A family without warm runs of 50 adds nothing.
    assert.strictEqual(chanceFirstUseFailures([warm(Number.NaN)], 3), 0)
  })
})

describe("bareSizes", () => {
  it("asks the default answer and one of each size over 4 KiB, once", () => {
    const sized = (bytes: number): Single => ({ ...single(1, 1), bytes })
    assert.deepStrictEqual(bareSizes({ record: sized(600), pedigree: sized(9000.4), progeny: sized(9000), list: sized(4096) }), [0, 9000])
  })
})

describe("mixed", () => {
  it("takes the families in turn, each until it runs out, without the crawler", () => {
    const family = (name: FamilyName, paths: Array<string>): Family => ({ name, description: "", paths })
    const paths = mixed([family("record", ["r1", "r2", "r3"]), family("list", ["l1"]), family("crawler", ["c1", "c2"]), family("breakdown", ["b1", "b2"])])
    assert.deepStrictEqual(paths, ["r1", "l1", "b1", "r2", "b2", "r3"])
  })
})

describe("rssAllowance", () => {
  it("is 1.1 GiB plus 60 MiB per worker, one per core when WORKERS is unset, and at most 1.2 GiB with 2 workers or fewer (issue 24)", () => {
    assert.strictEqual(rssAllowance(0, 2), 1.1 * 2 ** 30)
    assert.strictEqual(rssAllowance(1, 2), 1.1 * 2 ** 30 + 60 * 2 ** 20)
    assert.strictEqual(rssAllowance(3, 2), 1.1 * 2 ** 30 + 180 * 2 ** 20)
    assert.strictEqual(rssAllowance(2, 2), 1.2 * 2 ** 30)
    assert.strictEqual(rssAllowance(undefined, 2), 1.2 * 2 ** 30)
  })
})

describe("combine", () => {
  it("adds the counts, takes the throughput over the parts' time and the worst part's p99 and max", () => {
    const part = (requests: number, requestsPerSecond: number, p99: number, errors: number) => ({ requests, requestsPerSecond, p50: p99 / 10, p99, max: p99 * 2, statuses: { "200": requests - errors, "500": errors }, errors })
    const whole = combine([part(1000, 100, 30, 1), part(3000, 1000, 10, 0), part(600, 200, 20, 2)])
    assert.strictEqual(whole.requests, 4600)
    // 10 s + 3 s + 3 s.
    assert.strictEqual(whole.requestsPerSecond, 4600 / 16)
    assert.strictEqual(whole.p99, 30)
    assert.strictEqual(whole.max, 60)
    assert.strictEqual(whole.p50, 2)
    assert.strictEqual(whole.errors, 3)
    assert.deepStrictEqual(whole.statuses, { "200": 4597, "500": 3 })
  })
})
