import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { unionSorted, unionUnsorted } from "./unions.ts"

/** The naive union: every row once, ascending. */
const naive = (lists: ReadonlyArray<ReadonlyArray<number>>): Array<number> => [...new Set(lists.flat())].sort((a, b) => a - b)

/** Lists of rows below `size`, with repeats across lists (a name holding two tokens of one prefix). */
const listsBelow = (size: number, ascending: boolean) =>
  fc.array(fc.array(fc.integer({ min: 0, max: size - 1 }), { maxLength: 40 }), { maxLength: 8 }).map((lists) =>
    lists.map((list) => Uint32Array.from(ascending ? [...new Set(list)].sort((a, b) => a - b) : list)))

describe("unions", () => {
  it("unionUnsorted gives every row once, ascending, by a sort (few rows) or a bitset (many)", () => {
    // 64 rows: a bitset of 2 words, so that most totals go through the sort and the largest through the bitset.
    fc.assert(fc.property(listsBelow(64, false), (lists) => {
      const total = lists.reduce((sum, list) => sum + list.length, 0)
      assert.deepStrictEqual(Array.from(unionUnsorted(lists, total, 64)), naive(lists.map((l) => Array.from(l))))
    }))
    // One list with repeats within it, below the bitset's threshold: the sort alone.
    assert.deepStrictEqual(Array.from(unionUnsorted([Uint32Array.of(9, 3, 9, 3, 1)], 5, 1_000)), [1, 3, 9])
  })

  it("unionSorted gives every row once, ascending, by merges (up to 4 lists) or unionUnsorted", () => {
    fc.assert(fc.property(listsBelow(64, true), (lists) => {
      assert.deepStrictEqual(Array.from(unionSorted(lists, 64)), naive(lists.map((l) => Array.from(l))))
    }))
  })
})
