import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { Doorkeeper } from "./doorkeeper.ts"

const etag = (i: number) => `"${i.toString(16).padStart(16, "0")}"`

describe("Doorkeeper", () => {
  it("says a key is new the first time and seen the second, as a set of recent keys does", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 200 }), (keys) => {
      // 40 keys in 4096 slots: none forgets another (their fingerprints fall in distinct slots),
      // so the doorkeeper answers as the set of keys offered so far.
      const doorkeeper = new Doorkeeper(4096)
      const offered = new Set<number>()
      for (const key of keys) {
        assert.strictEqual(doorkeeper.seenBefore(etag(key)), offered.has(key), `key ${key}`)
        offered.add(key)
      }
    }))
  })

  it("takes a key never offered for one seen about once in 2^(32 - log2 slots) keys", () => {
    // 2^14 slots: a new key meets its slot's fingerprint once in 2^18 (262 144) keys on average.
    const doorkeeper = new Doorkeeper(1 << 14)
    let seen = 0
    for (let i = 0; i < 200_000; i++) if (doorkeeper.seenBefore(etag(i * 7919))) seen++
    assert.isAtMost(seen, 4)
  })

  it("remembers most of the last eighth as many keys as it has slots, and forgets past its size", () => {
    const slots = 1 << 14
    const doorkeeper = new Doorkeeper(slots)
    assert.strictEqual(doorkeeper.bytes, slots * 4)
    const recent = slots / 8
    for (let i = 0; i < recent; i++) doorkeeper.seenBefore(etag(i))
    let remembered = 0
    for (let i = 0; i < recent; i++) if (doorkeeper.seenBefore(etag(i))) remembered++
    // A key outlives k later keys with probability (1 - 1/slots)^k: 0.88 for k = slots / 8.
    assert.isAtLeast(remembered / recent, 0.8)
    // Eight times as many keys as slots afterwards: almost nothing of the first ones is left.
    for (let i = 0; i < 8 * slots; i++) doorkeeper.seenBefore(etag(1_000_000 + i))
    let left = 0
    for (let i = 0; i < recent; i++) if (doorkeeper.seenBefore(etag(i))) left++
    assert.isAtMost(left / recent, 0.01)
  })

  it("rounds its size up to a power of two", () => {
    assert.strictEqual(new Doorkeeper(1000).bytes, 1024 * 4)
    assert.strictEqual(new Doorkeeper(0).bytes, 4)
  })
})
