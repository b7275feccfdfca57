import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { generateExtract, SAMPLE_OPTIONS } from "./generateExtract.ts"
import { serializeExtract } from "./writeExtract.ts"

const SAMPLE = new URL("../../sample/equides-sample.jsonl.gz", import.meta.url)
const REGENERATE =
  `npm run ingest -- generate --seed ${SAMPLE_OPTIONS.seed} --count ${SAMPLE_OPTIONS.count} --out packages/ingest/sample/equides-sample.jsonl.gz`

describe("the embedded sample", () => {
  it(`is what the generator writes today (if not, regenerate it: ${REGENERATE})`, () => {
    const started = performance.now()
    const generated = Buffer.from([...serializeExtract(generateExtract(SAMPLE_OPTIONS), "jsonl")].join(""), "utf8")
    const elapsed = performance.now() - started
    const stored = gunzipSync(readFileSync(SAMPLE))
    expect(stored.length).toBe(generated.length)
    // Buffer.equals rather than toEqual: a 14 MB diff would drown the report.
    expect(stored.equals(generated)).toBe(true)
    expect(stored.toString("utf8").split("\n")).toHaveLength(SAMPLE_OPTIONS.count + 1)
    // Regenerating 30 000 lines takes about a second; ten leaves room for a busy CI machine.
    expect(elapsed).toBeLessThan(10_000)
  })
})
