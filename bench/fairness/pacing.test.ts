import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { Pacer, parsePolicy, probeIntervalMs, remainingOf, unitsPerSecond } from "./pacing.ts"

describe("the RateLimit headers", () => {
  it("reads the policy and the units left as the server writes them", () => {
    assert.deepStrictEqual(parsePolicy(`"default";q=200;w=4`), { burst: 200, windowSeconds: 4 })
    assert.strictEqual(unitsPerSecond({ burst: 200, windowSeconds: 4 }), 50)
    assert.strictEqual(remainingOf(`"default";r=150;t=1`), 150)
    assert.strictEqual(remainingOf(`"default";r=0;t=4`), 0)
  })

  it("says there is no quota when the headers are absent or incomplete", () => {
    assert.isUndefined(parsePolicy(undefined))
    assert.isUndefined(parsePolicy(`"default";q=200`))
    assert.isUndefined(remainingOf(undefined))
  })
})

describe("probeIntervalMs", () => {
  it("keeps a 1-unit probe within 80% of the refill rate, never faster than asked", () => {
    assert.strictEqual(probeIntervalMs(50, 10), 25)
    assert.strictEqual(probeIntervalMs(1000, 10), 10)
  })
})

/**
 * The naive model: the server's token bucket (burst B, R units a second, a request of C units
 * taken when it arrives, refused when fewer are left), a client sending one request at a time,
 * each answered L ms later, and waiting what the pacer says.
 */
const simulate = (burst: number, rate: number, cost: number, latencies: ReadonlyArray<number>) => {
  const pacer = new Pacer(rate)
  let tokens = burst
  let takenAt = 0
  let now = 0
  let refused = 0
  for (const latency of latencies) {
    tokens = Math.min(burst, tokens + (rate * (now - takenAt)) / 1000)
    takenAt = now
    const allowed = tokens >= cost
    if (allowed) tokens -= cost
    else refused++
    const sentAt = now
    now += latency
    if (allowed) now += pacer.admitted(sentAt, Math.floor(tokens))
    else {
      pacer.refused()
      now += 1000
    }
  }
  return { refused, elapsed: now }
}

describe("Pacer", () => {
  it("is never refused by the naive bucket, and waits little more than the bucket needs", () => {
    fc.assert(fc.property(
      fc.integer({ min: 20, max: 400 }),
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1, max: 10 }),
      fc.array(fc.double({ min: 0.05, max: 80, noNaN: true }), { minLength: 1, maxLength: 400 }),
      (burst, rate, cost, latencies) => {
        const { refused, elapsed } = simulate(burst, rate, cost, latencies)
        assert.strictEqual(refused, 0)
        // The bucket lets N requests of C units through in (N·C − B)/R s; the pacer may read the
        // units one too high and `r` is rounded down: at most 2 units a request more.
        const sent = latencies.reduce((sum, latency) => sum + latency, 0)
        const least = (1000 * (Math.max(0, latencies.length * cost - burst) + 2 * latencies.length + cost)) / rate
        assert.isAtMost(elapsed, sent + least + 1e-6)
      }
    ), { numRuns: 300 })
  })

  it("goes at the refill rate once the burst is spent", () => {
    // 200 units, 50 a second, 4 a request, answers in 1 ms: 50 requests at once, then one per 80–100 ms.
    const { refused, elapsed } = simulate(200, 50, 4, Array.from({ length: 150 }, () => 1))
    assert.strictEqual(refused, 0)
    assert.isAtLeast(elapsed, 100 * 80)
    assert.isAtMost(elapsed, 100 * 100 + 150)
  })
})
