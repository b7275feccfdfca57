import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { generateExtract, SAMPLE_OPTIONS } from "./generateExtract.ts"
import { serializeExtract } from "./writeExtract.ts"

const SAMPLE = new URL("../../sample/equides-sample.jsonl.gz", import.meta.url)
const REGENERATE =
  `npm run ingest -- generate --seed ${SAMPLE_OPTIONS.seed} --count ${SAMPLE_OPTIONS.count} --out packages/ingest/sample/equides-sample.jsonl.gz`

describe("the embedded sample", () => {
  // No claim on time (about a second here): the bound only stops a hang, far above a loaded CI's pace.
  it(`is what the generator writes today (if not, regenerate it: ${REGENERATE})`, { timeout: 120_000 }, () => {
    const generated = Buffer.from([...serializeExtract(generateExtract(SAMPLE_OPTIONS), "jsonl")].join(""), "utf8")
    const stored = gunzipSync(readFileSync(SAMPLE))
    expect(stored.length).toBe(generated.length)
    // Buffer.equals rather than toEqual: a 14 MB diff would drown the report.
    expect(stored.equals(generated)).toBe(true)
    expect(stored.toString("utf8").split("\n")).toHaveLength(SAMPLE_OPTIONS.count + 1)
  })
})
