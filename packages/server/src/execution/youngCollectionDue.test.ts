import { describe, expect, it } from "@effect/vitest"
import { youngCollectionDue } from "./youngCollectionDue.ts"

describe("youngCollectionDue", () => {
  it("is due once the external memory has grown by the threshold since the last collection, counted from there after it", () => {
    let external = 100
    const due = youngCollectionDue(() => external, 50)
    external = 149
    expect(due.now()).toBe(false)
    external = 150
    expect(due.now()).toBe(true)
    // Not collected yet: still due.
    expect(due.now()).toBe(true)
    external = 120
    due.collected()
    external = 169
    expect(due.now()).toBe(false)
    external = 170
    expect(due.now()).toBe(true)
  })

  it("counts from the least it saw, when a collection of V8's own freed some meanwhile", () => {
    let external = 1000
    const due = youngCollectionDue(() => external, 50)
    external = 900
    expect(due.now()).toBe(false)
    external = 949
    expect(due.now()).toBe(false)
    external = 950
    expect(due.now()).toBe(true)
  })

  it("reads the thread's external memory by default: ArrayBuffers made after it count", () => {
    const due = youngCollectionDue(undefined, 4 * 1024 * 1024)
    const kept = Array.from({ length: 8 }, () => new Uint8Array(1024 * 1024))
    expect(due.now()).toBe(true)
    expect(kept.length).toBe(8)
  })
})
