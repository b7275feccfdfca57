import { describe, expect, it } from "vitest"
import { pairSlices, parseWrk, sliceCount, splitCpus, type WrkResult, wrkMs } from "./wrk.ts"

const REPORT = `Running 10s test @ http://127.0.0.1:8080/v1/stats
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.02ms  350.12us  12.40ms   90.00%
    Req/Sec    24.51k     1.20k   27.00k    70.00%
  Latency Distribution
     50%  812.00us
     75%    1.10ms
     90%    1.40ms
     99%    2.01s
  487654 requests in 10.00s, 120.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  48765.40
Transfer/sec:     12.00MB
`

describe("wrk's report", () => {
  it("reads the rate, the latency percentiles and the errors", () => {
    const report = parseWrk(REPORT)
    expect(report).toMatchObject({ requestsPerSecond: 48765.4, requests: 487654, errors: 7 })
    expect(report.p50).toBeCloseTo(0.812)
    expect(report.p99).toBeCloseTo(2010)
  })
  it("reads durations in every unit", () => {
    expect(wrkMs("812.00us")).toBeCloseTo(0.812)
    expect(wrkMs("1.20ms")).toBe(1.2)
    expect(wrkMs("2s")).toBe(2000)
    expect(wrkMs("soon")).toBeNaN()
  })
  it("refuses a report without a rate", () => {
    expect(() => parseWrk("unable to connect")).toThrow(/no rate/)
  })
})

describe("pinning", () => {
  it("gives the servers the first half of the CPUs and wrk the rest, and pins nothing on one CPU", () => {
    expect(splitCpus(1)).toBeUndefined()
    expect(splitCpus(2)).toEqual({ server: "0", client: "1" })
    expect(splitCpus(3)).toEqual({ server: "0", client: "1-2" })
    expect(splitCpus(8)).toEqual({ server: "0-3", client: "4-7" })
  })
})

describe("paired slices", () => {
  const slice = (requestsPerSecond: number, cpuMicrosPerRequest?: number): WrkResult => ({
    requestsPerSecond,
    requests: requestsPerSecond,
    p50: 1,
    p99: 2,
    errors: 0,
    ...(cpuMicrosPerRequest === undefined ? {} : { cpuMicrosPerRequest })
  })

  it("compares each slice with the one beside it, not the medians with each other", () => {
    // The machine slows down by half in the middle: each pair sees the same moment.
    const bare = [slice(60_000, 15), slice(30_000, 30), slice(30_000, 30), slice(60_000, 15), slice(60_000, 15)]
    const api = [slice(48_000, 20), slice(24_000, 40), slice(24_000, 40), slice(48_000, 20), slice(30_000, 32)]
    const paired = pairSlices(bare, api)
    // Medians taken apart would say 30 000 / 60 000 = 0.5.
    expect(paired.ratio).toBeCloseTo(0.8)
    expect(paired.ratioQuartiles[0]).toBeCloseTo(0.65)
    expect(paired.ratioQuartiles[1]).toBeCloseTo(0.8)
    expect(paired.cpuRatio).toBeCloseTo(0.75)
    expect(paired.slices).toBe(5)
    expect(paired.first.requestsPerSecond).toBe(60_000)
    expect(paired.second.requestsPerSecond).toBe(30_000)
    expect(paired.second.cpuMicrosPerRequest).toBe(32)
  })

  it("gives each target runs × duration slices of 1 s, at least one", () => {
    expect(sliceCount({ connections: 50, runs: 3, duration: 5 })).toBe(15)
    expect(sliceCount({ connections: 50, runs: 1, duration: 0.2 })).toBe(1)
  })

  it("gives quartiles of the ratios, and no CPU ratio when a slice has no CPU figure", () => {
    const bare = [slice(100), slice(100), slice(100), slice(100)]
    const api = [slice(50), slice(70), slice(90), slice(110)]
    const paired = pairSlices(bare, api)
    expect(paired.ratio).toBeCloseTo(0.8)
    expect(paired.ratioQuartiles[0]).toBeCloseTo(0.6)
    expect(paired.ratioQuartiles[1]).toBeCloseTo(1.0)
    expect(paired.cpuRatio).toBeUndefined()
    expect(paired.first.cpuMicrosPerRequest).toBeUndefined()
  })
})
