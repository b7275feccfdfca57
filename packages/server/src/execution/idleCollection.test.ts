import { afterEach, assert, beforeEach, describe, it, vi } from "@effect/vitest"
import { idleCollection } from "./idleCollection.ts"

describe("the collection when idle", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("runs the delay after the last arming, not when cancelled by new work", () => {
    let collections = 0
    const idle = idleCollection(() => collections++, 2_000)
    idle.arm()
    vi.advanceTimersByTime(1_500)
    idle.arm()
    vi.advanceTimersByTime(1_999)
    assert.strictEqual(collections, 0)
    vi.advanceTimersByTime(1)
    assert.strictEqual(collections, 1)
    idle.arm()
    vi.advanceTimersByTime(1_000)
    // A message arrives: the thread is no longer idle.
    idle.cancel()
    vi.advanceTimersByTime(10_000)
    assert.strictEqual(collections, 1)
  })
})
