/**
 * The replicas' local decisions over a shared bucket, against a naive model of the Redis script
 * (`quotaScript.ts`; the script itself is pinned against a real Redis in `redisQuota.test.ts`):
 * one replica whose debits are answered at once decides exactly as the memory store; N replicas
 * whose debits are answered in any order, at any time, never admit more than
 * burst + rate × t + N × U over any interval (U: the local allowance, or one request's cost).
 * Searching harder (15 000 cases of up to 4 replicas) found (N − 1) × U at worst: one replica never
 * overshoots, each other one by what it admitted before it heard of the others.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { TokenBuckets } from "./quota.ts"
import { SharedBuckets } from "./sharedBuckets.ts"

/** The script's arithmetic, naively: refill since the stored time, then the debit, even below zero. */
const modelRedis = (rate: number, burst: number) => {
  const keys = new Map<string, { level: number; at: number }>()
  return (key: string, units: number, now: number): { level: number; at: number } => {
    const stored = keys.get(key) ?? { level: burst, at: now }
    const refilled = now > stored.at ? { level: Math.min(burst, stored.level + ((now - stored.at) * rate) / 1000), at: now } : stored
    const after = { level: refilled.level - units, at: refilled.at }
    keys.set(key, after)
    return after
  }
}

describe("SharedBuckets", () => {
  it("one replica answered at once decides exactly as the memory store (headers included)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 100 }),
      fc.integer({ min: 1, max: 300 }),
      fc.array(fc.record({ dt: fc.integer({ min: 0, max: 3000 }), cost: fc.integer({ min: 1, max: 400 }), key: fc.constantFrom("a", "b") }), { maxLength: 200 }),
      (rate, burst, steps) => {
        const memory = new TokenBuckets(rate, burst)
        const redis = modelRedis(rate, burst)
        let now = 0
        const shared: SharedBuckets = new SharedBuckets(rate, burst, 1, (key, units) => {
          const { level, at } = redis(key, units, now)
          shared.settled(key, level, at)
        })
        shared.setUp(true)
        for (const step of steps) {
          now += step.dt
          assert.deepStrictEqual(shared.take(step.key, step.cost, now), memory.take(step.key, step.cost, now))
          assert.deepStrictEqual(shared.peek(step.key, now), memory.peek(step.key, now))
        }
      }
    ))
  })

  it("N replicas, debits answered late and in any order: within burst + rate × t + N × U over every interval", () => {
    const rate = 20
    const burst = 40
    const localUnits = 4
    type Event =
      | { readonly kind: "request"; readonly replica: number; readonly cost: number }
      | { readonly kind: "answer"; readonly replica: number }
      | { readonly kind: "wait"; readonly ms: number }
    // Mostly requests, so that the bucket runs dry and the replicas' views go stale.
    const event: fc.Arbitrary<Event> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant("request" as const), replica: fc.integer({ min: 0, max: 2 }), cost: fc.integer({ min: 1, max: 6 }) }), weight: 8 },
      { arbitrary: fc.record({ kind: fc.constant("answer" as const), replica: fc.integer({ min: 0, max: 2 }) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 300 }) }), weight: 1 }
    )
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.array(event, { minLength: 100, maxLength: 400 }), (replicas, events) => {
      const redis = modelRedis(rate, burst)
      let now = 0
      const pending: Array<Array<{ readonly key: string; readonly units: number }>> = []
      const stores = Array.from({ length: replicas }, (_, i) => {
        pending.push([])
        const store = new SharedBuckets(rate, burst, localUnits, (key, units) => pending[i].push({ key, units }))
        store.setUp(true)
        return store
      })
      const admitted: Array<{ readonly at: number; readonly units: number }> = []
      for (const e of events) {
        if (e.kind === "wait") now += e.ms
        else if (e.replica < replicas) {
          if (e.kind === "request") {
            const cost = Math.min(e.cost, burst)
            if (stores[e.replica].take("caller", cost, now).allowed) admitted.push({ at: now, units: cost })
          } else {
            // Redis applies the debit now (the replica's clock), the answer arrives now.
            const call = pending[e.replica].shift()
            if (call !== undefined) {
              const { level, at } = redis(call.key, call.units, now)
              stores[e.replica].settled(call.key, level, at)
            }
          }
        }
      }
      const bound = replicas * 6 // U = max(localUnits, the largest cost) = 6
      for (let i = 0; i < admitted.length; i++) {
        let units = 0
        for (let j = i; j < admitted.length; j++) {
          units += admitted[j].units
          const allowance = burst + (rate * (admitted[j].at - admitted[i].at)) / 1000
          assert.isAtMost(units, allowance + bound, `${units} units in ${admitted[j].at - admitted[i].at} ms`)
        }
      }
    }), { numRuns: 300 })
  })

  it("admits what it has not confirmed up to the local allowance, then asks again in a second", () => {
    const sent: Array<number> = []
    const store = new SharedBuckets(50, 200, 10, (_, units) => sent.push(units))
    store.setUp(true)
    for (let i = 0; i < 10; i++) assert.isTrue(store.take("a", 1, 0).allowed)
    // One call in flight (the first unit), nine units waiting for it.
    assert.deepStrictEqual(sent, [1])
    assert.deepStrictEqual(store.take("a", 1, 0), { allowed: false, remaining: 190, resetSeconds: 1, retryAfterSeconds: 1 })
    // Redis took the first unit (another replica took 50): the nine go in the next call.
    store.settled("a", 149, 0)
    assert.deepStrictEqual(sent, [1, 9])
    assert.deepStrictEqual(store.peek("a", 0), { allowed: true, remaining: 140, resetSeconds: 2, retryAfterSeconds: 0 })
    // A request costlier than the allowance passes when nothing is unconfirmed.
    store.settled("a", 140, 0)
    assert.isTrue(store.take("a", 30, 0).allowed)
    assert.deepStrictEqual(sent, [1, 9, 30])
  })

  it("a debt reported by Redis is waited off: Retry-After counts it", () => {
    const store = new SharedBuckets(2, 10, 5, () => {})
    store.setUp(true)
    assert.isTrue(store.take("a", 1, 0).allowed)
    store.settled("a", -3, 0)
    // 4 units short at 2/s: 2 s.
    assert.deepStrictEqual(store.take("a", 1, 0), { allowed: false, remaining: 0, resetSeconds: 7, retryAfterSeconds: 2 })
    assert.isTrue(store.take("a", 1, 2000).allowed)
  })

  it("down: every request passes and the mirrors are forgotten; up again: the quota applies", () => {
    const store = new SharedBuckets(1, 2, 2, () => {})
    store.setUp(true)
    assert.isTrue(store.take("a", 2, 0).allowed)
    assert.isFalse(store.take("a", 1, 0).allowed)
    store.setUp(false)
    assert.isFalse(store.up)
    assert.strictEqual(store.size, 0)
    for (let i = 0; i < 10; i++) assert.isTrue(store.take("a", 2, 0).allowed)
    assert.strictEqual(store.size, 0)
    store.setUp(true)
    assert.isTrue(store.take("a", 2, 0).allowed)
    assert.isFalse(store.take("a", 2, 0).allowed)
  })

  it("forgets the mirrors of full buckets with nothing in flight, and stays under its cap", () => {
    let store: SharedBuckets
    store = new SharedBuckets(50, 200, 20, (key) => store.settled(key, 190, 0), 1000)
    store.setUp(true)
    for (let i = 0; i < 500; i++) store.take(`caller-${i}`, 10, 0)
    assert.strictEqual(store.size, 500)
    store.sweep(10_000)
    assert.strictEqual(store.size, 0)
    for (let i = 0; i < 5000; i++) store.take(`flood-${i}`, 10, 20_000)
    assert.isAtMost(store.size, 1000)
  })
})
