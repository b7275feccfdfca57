import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { blake3 } from "hash-wasm"
import { BackgroundHasher } from "./backgroundHasher.ts"

describe("BackgroundHasher", () => {
  it.effect("hashes the bytes of each view, in order, like hash-wasm's blake3", () =>
    Effect.gen(function*() {
      const whole = new Uint8Array(3_000_000).map((_, i) => (i * 7919) % 251)
      const hasher = new BackgroundHasher()
      try {
        // Views into a larger buffer: only their own bytes count.
        for (const [start, end] of [[0, 10], [10, 10], [10, 1_000_000], [1_000_000, 3_000_000]] as const) {
          yield* Effect.promise(() => Promise.resolve(hasher.update(whole.subarray(start, end))))
        }
        expect(yield* Effect.promise(() => hasher.digest())).toBe(yield* Effect.promise(() => blake3(whole)))
      } finally {
        hasher.close()
      }
    }))

  it.effect("asks the reader to wait when too much is queued, then catches up", () =>
    Effect.gen(function*() {
      const chunk = new Uint8Array(8 << 20).fill(42)
      const hasher = new BackgroundHasher()
      try {
        let waits = 0
        for (let i = 0; i < 10; i++) {
          const backlog = hasher.update(chunk)
          if (backlog !== undefined) {
            waits++
            yield* Effect.promise(() => backlog)
          }
        }
        expect(waits).toBeGreaterThan(0)
        const expected = new Uint8Array(10 * chunk.length).fill(42)
        expect(yield* Effect.promise(() => hasher.digest())).toBe(yield* Effect.promise(() => blake3(expected)))
      } finally {
        hasher.close()
      }
    }))
})
