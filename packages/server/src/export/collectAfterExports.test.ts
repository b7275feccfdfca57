import { afterEach, assert, beforeEach, describe, it, vi } from "@effect/vitest"
import { collectAfterExports } from "./collectAfterExports.ts"

describe("the collection after the exports", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("runs once, the delay after the last export of a burst ended, none running", () => {
    let running = 2
    let collections = 0
    const ended = collectAfterExports(() => running, () => collections++, 2_000)
    running = 1
    ended()
    vi.advanceTimersByTime(5_000)
    assert.strictEqual(collections, 0)
    running = 0
    ended()
    vi.advanceTimersByTime(1_000)
    // Another export of the burst ends later: the delay counts from it.
    ended()
    vi.advanceTimersByTime(1_999)
    assert.strictEqual(collections, 0)
    vi.advanceTimersByTime(1)
    assert.strictEqual(collections, 1)
    vi.advanceTimersByTime(10_000)
    assert.strictEqual(collections, 1)
  })

  it("does not run when an export started meanwhile, nor without a collector", () => {
    let running = 0
    let collections = 0
    const ended = collectAfterExports(() => running, () => collections++, 2_000)
    ended()
    running = 1
    vi.advanceTimersByTime(2_000)
    assert.strictEqual(collections, 0)
    running = 0
    // Without a collector nothing is armed (the count above cannot see it: that collector is another).
    collectAfterExports(() => running, undefined, 2_000)()
    assert.strictEqual(vi.getTimerCount(), 0)
    vi.advanceTimersByTime(2_000)
    assert.strictEqual(collections, 0)
  })
})
