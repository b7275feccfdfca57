import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { dictionaryOf } from "./build/indexes.ts"
import { compareDictionaryValues, dictionarySize, dictionaryValue, dictionaryValues } from "./columns.ts"

// Characters where UTF-8's byte order and UTF-16's code-unit order disagree (U+E000–U+FFFF against
// anything above U+FFFF), a byte order mark, and whatever else fast-check draws (well-formed only:
// a dictionary is built from decoded UTF-8).
const tricky = fc.constantFrom("\uFEFF", "\uE000", "\uFFFD", "\uFFFF", "\u{10000}", "😀", "é", "")
const value = fc.array(fc.oneof(tricky, fc.string({ unit: "grapheme", maxLength: 2 })), { maxLength: 4 }).map((parts) => parts.join(""))

describe("Dictionary", () => {
  it("gives back every value exactly, and compares two values as JavaScript compares the strings", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 30 }), (values) => {
        const dictionary = dictionaryOf(values)
        expect(dictionarySize(dictionary)).toBe(values.length)
        expect(dictionaryValues(dictionary)).toEqual(values)
        for (let a = 0; a < values.length; a++) {
          expect(dictionaryValue(dictionary, a)).toBe(values[a])
          for (let b = 0; b < values.length; b++) {
            const expected = values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : 0
            expect(Math.sign(compareDictionaryValues(dictionary, a, b)), `${values[a]} ? ${values[b]}`).toBe(expected)
          }
        }
      })
    )
  })
})
