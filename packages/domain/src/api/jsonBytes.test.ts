import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
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
