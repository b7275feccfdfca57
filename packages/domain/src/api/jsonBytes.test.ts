import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { dictionaryOf } from "../dataset/build/indexes.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { encodeId, ID_BYTES } from "../dataset/ids.ts"
import { Writer } from "./jsonBytes.ts"

const text = new TextDecoder()

const written = (write: (w: Writer) => void): string => {
  const w = new Writer()
  write(w)
  return text.decode(w.take())
}

describe("Writer", () => {
  it("writes an identifier as encodeId spells it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: ID_BYTES * 3, maxLength: ID_BYTES * 3 }), fc.integer({ min: 0, max: 2 }), (ids, row) => {
        expect(written((w) => w.id({ ids } as unknown as DatasetData, row))).toBe(encodeId(ids, row * ID_BYTES))
      })
    )
  })

  it("writes a finite number as JSON.stringify does", () => {
    const numbers = fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.constantFrom(0, 9, 10, 99, 100, 2024, Number.MAX_SAFE_INTEGER), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
    fc.assert(fc.property(numbers, (n) => {
      expect(written((w) => w.int(n))).toBe(JSON.stringify(n))
    }))
  })

  it("writes a dictionary value as JSON.stringify writes it, a leading byte order mark kept", () => {
    const value = fc.oneof(fc.string({ unit: "grapheme" }), fc.constantFrom("\uFEFFSelle Français", "a\"b\\c\n\u0001\u001f", "\u2028\u{1F40E}", ""))
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 20 }), (values) => {
      const dictionary = dictionaryOf(values)
      values.forEach((v, code) => {
        const w = new Writer()
        w.dictionaryString(dictionary, code)
        expect(w.take()).toEqual(new TextEncoder().encode(JSON.stringify(v)))
      })
    }))
  })

  it("grows past its first buffer and keeps what it held", () => {
    const w = new Writer()
    const years = Array.from({ length: 5000 }, (_, i) => 1900 + (i % 125))
    for (const year of years) {
      w.int(year)
      w.ascii(",")
    }
    expect(text.decode(w.take())).toBe(years.map((year) => `${year},`).join(""))
  })
})
