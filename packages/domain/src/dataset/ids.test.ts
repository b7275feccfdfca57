import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { decodeId, decodeIdBytes, encodeId, ID_BYTES } from "./ids.ts"

describe("ids", () => {
  it("decodeIdBytes reads UTF-8 bytes exactly as decodeId reads the text", () => {
    const text = fc.oneof(
      fc.uint8Array({ minLength: ID_BYTES, maxLength: ID_BYTES }).map((bytes) => encodeId(bytes, 0)),
      fc.uint8Array({ minLength: ID_BYTES, maxLength: ID_BYTES }).chain((bytes) =>
        fc.tuple(fc.nat(21), fc.constantFrom("+", "/", "=", "é", " ", "\u0000", "B", "_")).map(([at, c]) => {
          const id = encodeId(bytes, 0)
          return id.slice(0, at) + c + id.slice(at + 1)
        })
      ),
      fc.string({ minLength: 20, maxLength: 24 })
    )
    fc.assert(
      fc.property(text, (id) => {
        const expected = new Uint8Array(ID_BYTES)
        const actual = new Uint8Array(ID_BYTES)
        const bytes = new TextEncoder().encode(id)
        const ok = decodeId(id, expected, 0)
        expect(decodeIdBytes(bytes, 0, bytes.length, actual, 0)).toBe(ok)
        if (ok) expect(actual).toEqual(expected)
      }),
      { numRuns: 3000 }
    )
  })
})
