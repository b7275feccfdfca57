import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { hasBit } from "../dataset/bits.ts"
import { dictionaryOf } from "../dataset/build/indexes.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import { naiveRows, rowsByWord, syntheticRecords } from "../testing/arbitraries.ts"
import { exactToken, prefixRange, prefixSet } from "./nameTokens.ts"

// Letters on both sides of UTF-16's order against code points (U+E000–U+FFFF, above U+FFFF), as
// folded words may hold them.
const letter = fc.constantFrom("A", "B", "É", "Z", "\uFB01", "\uFF21", "𝐀", "𐐀")
const word = fc.array(letter, { minLength: 1, maxLength: 4 }).map((letters) => letters.join(""))

describe("name tokens on their UTF-8", () => {
  it("finds a prefix's range and a whole word as the strings would", () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 40 }), word, (words, query) => {
        const sorted = [...words].sort()
        const tokens = dictionaryOf(sorted)
        const lo = sorted.findIndex((token) => token >= query)
        const from = lo === -1 ? sorted.length : lo
        let to = from
        while (to < sorted.length && sorted[to].startsWith(query)) to++
        expect(prefixRange(tokens, query)).toEqual([from, to])
        expect(exactToken(tokens, query)).toBe(sorted.indexOf(query))
        for (let i = 1; i <= query.length; i++) {
          const prefix = query.slice(0, i)
          if (prefix.isWellFormed()) expect(prefixRange(tokens, prefix)[1] - prefixRange(tokens, prefix)[0]).toBe(sorted.filter((token) => token.startsWith(prefix)).length)
        }
      })
    )
  })
})

describe("the Dataset's bitsets of frequent words", () => {
  it("holds the rows of every whole word of at least 1/32 of the rows, and of no rarer one", () => {
    const records = syntheticRecords(20000, 3)
    const data = buildDataset(records)
    const rows = naiveRows(records)
    let frequent = 0
    for (const [word, those] of rowsByWord(rows)) {
      const t = exactToken(data.names.tokens, word)
      const set = prefixSet(data, t, t + 1)
      const [lo, hi] = prefixRange(data.names.tokens, word)
      if (those.length >= data.size / 32) {
        frequent++
        expect(set?.count, word).toBe(those.length)
        const held = Array.from({ length: data.size }, (_, row) => row).filter((row) => hasBit(set!.bits, row))
        expect(held, word).toEqual(those.map(({ row }) => row))
      } else if (hi - lo > 1) {
        // A rare word that is also the prefix of others: its own rows never get a set of their own.
        expect(set, word).toBeUndefined()
      }
    }
    expect(frequent).toBeGreaterThan(3)
  })
})
