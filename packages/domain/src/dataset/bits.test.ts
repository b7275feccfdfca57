import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { bitRank, bitRanks, bitsOfLists } from "./bits.ts"

describe("bitRank", () => {
  it("is the count of set rows below a row, as counting them one by one gives", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }).chain((size) => fc.tuple(fc.constant(size), fc.uniqueArray(fc.nat(size - 1)))), ([size, set]) => {
        const bits = bitsOfLists(size, [set])
        const ranks = bitRanks(bits)
        for (let row = 0; row < size; row++) expect(bitRank(bits, ranks, row)).toBe(set.filter((r) => r < row).length)
      })
    )
  })
})
