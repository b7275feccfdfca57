import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { CSV_HEADER } from "../format/csvRow.ts"
import { collect, temporaryDirectory } from "../source/testing.ts"
import { generateExtract } from "./generateExtract.ts"
import { extractTargetOf, serializeExtract, writeExtract } from "./writeExtract.ts"

const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

const OPTIONS = { seed: 5, count: 3000 }
const text = (format: "jsonl" | "csv") => [...serializeExtract(generateExtract(OPTIONS), format)].join("")

describe("extractTargetOf", () => {
  it("reads the format and compression from the extension", () => {
    expect(extractTargetOf("a/b.jsonl")).toEqual({ format: "jsonl", gzip: false })
    expect(extractTargetOf("b.NDJSON.gz")).toEqual({ format: "jsonl", gzip: true })
    expect(extractTargetOf("b.csv.gz")).toEqual({ format: "csv", gzip: true })
    expect(extractTargetOf("b.csv")).toEqual({ format: "csv", gzip: false })
    expect(extractTargetOf("b.json")).toBeUndefined()
    expect(extractTargetOf("b.gz")).toBeUndefined()
  })
})

describe("writeExtract", () => {
  it("writes JSON Lines, plain and gzip-compressed, in chunks that add up to the whole", async () => {
    const plain = await writeExtract(generateExtract(OPTIONS), tmp.path("x/extract.jsonl"))
    const packed = await writeExtract(generateExtract(OPTIONS), tmp.path("extract.jsonl.gz"))
    expect(plain.lines).toBe(OPTIONS.count)
    expect(packed.lines).toBe(OPTIONS.count)
    const expected = text("jsonl")
    expect(readFileSync(tmp.path("x/extract.jsonl"), "utf8")).toBe(expected)
    expect(plain.bytes).toBe(Buffer.byteLength(expected))
    expect(gunzipSync(readFileSync(tmp.path("extract.jsonl.gz"))).toString("utf8")).toBe(expected)
    expect(packed.bytes).toBeLessThan(plain.bytes / 2)
  })

  it("writes the flat CSV layout with CRLF line ends", async () => {
    await writeExtract(generateExtract(OPTIONS), tmp.path("extract.csv"))
    const csv = readFileSync(tmp.path("extract.csv"), "utf8")
    expect(csv).toBe(text("csv"))
    expect(csv.startsWith(CSV_HEADER + "\r\n")).toBe(true)
    expect(csv).toContain("\"[{\"\"discipline\"\":")
  })

  it.effect("gives the same records through the JSON Lines and CSV readers", () =>
    Effect.gen(function*() {
      yield* Effect.promise(() => writeExtract(generateExtract(OPTIONS), tmp.path("same.jsonl.gz")))
      yield* Effect.promise(() => writeExtract(generateExtract(OPTIONS), tmp.path("same.csv.gz")))
      const jsonl = yield* collect(tmp.path("same.jsonl.gz"))
      const csv = yield* collect(tmp.path("same.csv.gz"))
      expect(jsonl.records).toHaveLength(OPTIONS.count)
      expect(csv.records).toEqual(jsonl.records)
    }))

  it("refuses a path whose format it cannot tell", async () => {
    await expect(writeExtract(generateExtract(OPTIONS), tmp.path("extract.txt"))).rejects.toThrow(/format/)
  })
})
