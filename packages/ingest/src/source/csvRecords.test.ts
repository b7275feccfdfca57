/** The CSV reader's UTF-8 marking across chunk boundaries (the reader itself: `readSource.test.ts`). */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { Utf8Marker } from "./csvRecords.ts"
import { markInvalidUtf8 } from "./normalize.ts"

const through = (chunks: ReadonlyArray<Buffer>) => {
  const marker = new Utf8Marker()
  const out = chunks.map((chunk) => marker.push(chunk))
  const tail = marker.end()
  return { bytes: Buffer.concat(tail === undefined ? out : [...out, tail]), marked: marker.marked }
}

describe("Utf8Marker", () => {
  it("gives the bytes as they are when they are UTF-8, wherever the chunks are cut", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), fc.integer({ min: 0, max: 64 }), (text, cut) => {
      const bytes = Buffer.from(text.toWellFormed(), "utf8")
      const at = Math.min(cut, bytes.length)
      const { bytes: out, marked } = through([bytes.subarray(0, at), bytes.subarray(at)])
      expect(out.equals(bytes)).toBe(true)
      expect(marked).toBe(false)
    }))
  })

  // A run cut by a chunk boundary may get two marks instead of one: the value holding it is left out all the same.
  const runs = (bytes: Buffer) => bytes.toString("utf8").replace(/\uFFFF+/g, "\uFFFF")

  it("marks what is not UTF-8 as a whole read would, wherever the chunks are cut", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 24 }), fc.integer({ min: 0, max: 24 }), (bytes, cut) => {
      const buffer = Buffer.from(bytes)
      const at = Math.min(cut, buffer.length)
      const { bytes: out } = through([buffer.subarray(0, at), buffer.subarray(at)])
      expect(runs(out)).toBe(runs(markInvalidUtf8(buffer, 0, buffer.length)))
    }))
  })
})
