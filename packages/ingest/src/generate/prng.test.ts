import { isCanonicalId } from "@equides/domain"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { corruptId, generatedId, ID_DEFECTS } from "./ids.ts"
import { keyWord, mix32, Rng, Weighted } from "./prng.ts"

const u32 = fc.integer({ min: 0, max: 2 ** 32 - 1 })

describe("Rng", () => {
  it("gives the same sequence for the same key and another for another key", () => {
    const draw = (rng: Rng) => Array.from({ length: 8 }, () => rng.nextU32())
    expect(draw(new Rng(1, 2, 3))).toEqual(draw(new Rng(1, 2, 3)))
    expect(draw(new Rng(1, 2, 3))).not.toEqual(draw(new Rng(1, 3, 3)))
    expect(draw(new Rng(1, 2, 3))).not.toEqual(draw(new Rng(2, 2, 3)))
    expect(draw(new Rng(5).reseed(1, 2, 3))).toEqual(draw(new Rng(1, 2, 3)))
  })

  it("is pinned: the embedded sample depends on these exact numbers", () => {
    const rng = new Rng(1, 0, 0)
    expect([rng.nextU32(), rng.nextU32(), rng.nextU32()]).toEqual([3008844513, 3289768524, 2728660997])
    expect(mix32(1)).toBe(0x514e28b7)
    expect(generatedId(1, 0)).toBe("e0qx1aqUQk-NGLL1dd9e8Q")
  })

  it("draws uniform floats in [0, 1) and integers in range", () => {
    const rng = new Rng(42)
    let sum = 0
    let outOfRange = 0
    for (let i = 0; i < 20_000; i++) {
      const x = rng.float()
      if (!(x >= 0 && x < 1)) outOfRange++
      sum += x
      const n = rng.between(3, 7)
      if (!(n >= 3 && n <= 7 && Number.isInteger(n))) outOfRange++
    }
    expect(outOfRange).toBe(0)
    expect(sum / 20_000).toBeCloseTo(0.5, 1)
  })

  it("keys one stream per index: word 0 never repeats across indices", () => {
    fc.assert(
      fc.property(u32, fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 2 ** 31 }), (seed, a, b) => {
        fc.pre(a !== b)
        expect(keyWord(seed, a, 7, 0)).not.toBe(keyWord(seed, b, 7, 0))
      })
    )
  })
})

describe("Weighted", () => {
  it("draws in proportion to the weights", () => {
    const table = new Weighted([["a", 1], ["b", 3], ["c", 0]] as const)
    const rng = new Rng(9)
    const counts = { a: 0, b: 0, c: 0 }
    for (let i = 0; i < 40_000; i++) counts[table.pick(rng)]++
    expect(counts.c).toBe(0)
    expect(counts.b / 40_000).toBeCloseTo(0.75, 1)
  })
})

describe("generated ids", () => {
  it("are canonical UUID v4 ids, with '-' and '_' among them", () => {
    fc.assert(
      fc.property(u32, fc.nat(), (seed, index) => {
        const id = generatedId(seed, index)
        expect(isCanonicalId(id)).toBe(true)
        const bytes = Buffer.from(id, "base64url")
        expect(bytes[6] >> 4).toBe(4)
        expect(bytes[8] >> 6).toBe(2)
      })
    )
    const ids = Array.from({ length: 1000 }, (_, i) => generatedId(1, i))
    expect(ids.some((id) => id.includes("-"))).toBe(true)
    expect(ids.some((id) => id.includes("_"))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("become unreadable under every defect", () => {
    fc.assert(
      fc.property(u32, fc.nat(), fc.constantFrom(...ID_DEFECTS), u32, (seed, index, defect, draw) => {
        const id = generatedId(seed, index)
        expect(isCanonicalId(corruptId(id, defect, new Rng(draw)))).toBe(false)
      })
    )
  })
})
