/**
 * The loader end to end: the anomaly fixtures give the counts their README announces, and a JSON
 * Lines file and a CSV file of the same records give equal Datasets.
 */
import type { DatasetData } from "@equides/domain"
import { recordsArbitrary } from "@equides/domain/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { gzipSync } from "node:zlib"
import { CSV_HEADER, recordToCsvRow } from "../format/csvRow.ts"
import { FIXTURES, temporaryDirectory, writeFile } from "../source/testing.ts"
import { ingestSource } from "./loadDataset.ts"

const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

/** Everything but where the bytes came from. */
const content = ({ provenance: _, ...rest }: DatasetData) => rest

describe("loading the anomaly fixtures", () => {
  it.effect("counts every anomaly exactly, in both formats", () =>
    Effect.gen(function*() {
      for (const file of ["anomalies.jsonl", "anomalies.csv"]) {
        const { data } = yield* ingestSource(`${FIXTURES}${file}`)
        expect(data.size).toBe(10)
        expect(data.anomalies).toEqual({
          annee_naissance_absente: 4,
          annee_naissance_min: 193,
          annee_naissance_max: 2019,
          identifiants_illisibles: 3,
          parents_pendants: 2,
          robe_absente: 3,
          sans_filiation: 5,
          slugs_non_deductibles: 1
        })
        expect(data.withPerformances.length).toBe(5)
      }
    }))

  it.effect("gives equal Datasets from the JSON Lines and the CSV fixture", () =>
    Effect.gen(function*() {
      const jsonl = yield* ingestSource(`${FIXTURES}anomalies.jsonl`)
      const csv = yield* ingestSource(`${FIXTURES}anomalies.csv`)
      expect(content(csv.data)).toEqual(content(jsonl.data))
    }))
})

describe("JSON Lines and CSV", () => {
  it.effect("give equal Datasets for the same records, compressed or not", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(recordsArbitrary({ maxLength: 40 }), fc.boolean(), async (records, gzip) => {
          const jsonl = records.map((record) => JSON.stringify({ ...record, naisseur: "Jeanne DUPONT" })).join("\n")
          const csv = [CSV_HEADER, ...records.map((record) => recordToCsvRow(record))].join("\r\n")
          const suffix = gzip ? ".gz" : ""
          const encode = (text: string) => (gzip ? gzipSync(text) : text)
          const a = writeFile(tmp.path(`same${suffix === "" ? "" : "-gz"}.jsonl${suffix}`), encode(jsonl))
          const b = writeFile(tmp.path(`same${suffix === "" ? "" : "-gz"}.csv${suffix}`), encode(csv))
          const fromJsonl = await Effect.runPromise(ingestSource(a))
          const fromCsv = await Effect.runPromise(ingestSource(b))
          expect(content(fromCsv.data)).toEqual(content(fromJsonl.data))
          expect(fromJsonl.data.size).toBe(records.length)
        }),
        { numRuns: 40 }
      )
    ))
})
