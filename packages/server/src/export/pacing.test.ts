/**
 * The quota paces an export (design 7) against a fake clock: whatever the chunks, the rate and the
 * burst, a caller never has more than burst + rate × t units in t seconds, the stream waits
 * instead of failing and in the end every whole 16 KiB of body is charged; a client that leaves
 * stops the wait at once.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { TokenBuckets } from "../admission/quota.ts"
import { Pacer, type PacingClock } from "./pacing.ts"

/** A clock that moves only when the pacer sleeps. */
const fakeClock = () => {
  let now = 0
  const clock: PacingClock & { readonly elapsed: () => number } = {
    now: () => now,
    sleep: (ms) => {
      now += ms
      return Promise.resolve()
    },
    elapsed: () => now
  }
  return clock
}

describe("Pacer", () => {
  it("never takes more than burst + rate × t units, and charges every whole 16 KiB in the end", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 40 }),
        async (rate, burst, chunks) => {
          const clock = fakeClock()
          const store = new TokenBuckets(rate, burst)
          const taken: Array<number> = []
          const counting = {
            take: (key: string, cost: number, now: number) => {
              const state = store.take(key, cost, now)
              if (state.allowed) for (let i = 0; i < cost; i++) taken.push(now)
              return state
            },
            peek: store.peek.bind(store),
            size: 0,
            up: true
          }
          const pacer = new Pacer(counting, "caller", rate, clock)
          const signal = new AbortController().signal
          let bytes = 0
          for (const chunk of chunks) {
            await pacer.charge(chunk, signal)
            bytes += chunk
            // Every unit of what is produced so far is taken before the chunk goes out.
            assert.strictEqual(pacer.units, Math.floor(bytes / 16_384))
          }
          // The naive model: in any window [0, t], at most burst + rate × t units.
          for (let i = 0; i < taken.length; i++) assert.isAtMost(i + 1, burst + (rate * taken[i]) / 1000 + 1e-9)
        }
      ),
      { numRuns: 200 }
    )
  })

  it("stops waiting when the client leaves", async () => {
    const clock = fakeClock()
    const store = new TokenBuckets(1, 1)
    const pacer = new Pacer(store, "caller", 1, { now: clock.now, sleep: (_ms, signal) => (controller.abort(), clock.sleep(_ms, signal)) })
    const controller = new AbortController()
    await pacer.charge(10 * 16_384, controller.signal)
    assert.isTrue(controller.signal.aborted)
    assert.isBelow(pacer.units, 10)
  })

  it("charges nothing without a quota", async () => {
    const pacer = new Pacer(undefined, "caller", 0, fakeClock())
    await pacer.charge(1_000_000, new AbortController().signal)
    assert.strictEqual(pacer.units, 0)
  })
})
