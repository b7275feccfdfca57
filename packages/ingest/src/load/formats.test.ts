/**
 * The loader end to end: the anomaly fixtures give the counts their README announces, and a JSON
 * Lines file and a CSV file of the same records give equal Datasets.
 */
import { type DatasetData, nomOf } from "@equides/domain"
import { recordsArbitrary } from "@equides/domain/testing"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
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
          slugs_non_deductibles: 1,
          textes_invalides: 0,
          types_invalides: 0
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

describe("values present but unusable", () => {
  const ID = (n: number) => `${"A".repeat(20)}${"ABCDEFGH"[n]}A`
  const bytes = (...parts: Array<string | ReadonlyArray<number>>) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))))

  it.effect("invalid UTF-8 and wrong JSON types are left out as absent and counted, in both readers' paths", () =>
    Effect.gen(function*() {
      const jsonl = writeFile(tmp.path("unusable.jsonl"), bytes(
        // The fast path's usual line, for reference.
        `{"id":"${ID(0)}","nom":"BON","robe":"Bai","sexe":"Male"}\n`,
        // Invalid UTF-8 in nom (an overlong form) and in a link's name (a lone byte): absent, counted.
        `{"id":"${ID(1)}","nom":"MAU`, [0xc0, 0xae], `VAIS","robe":"Bai","pere":{"id":"${ID(0)}","nom":"X`, [0xff], `"}}\n`,
        // Wrong types: counted, absent; the record keeps the rest.
        `{"id":"${ID(2)}","nom":123,"sexe":["Male"],"robe":"Gris","annee_naissance":"1990","pere":"${ID(0)}"}\n`,
        // A lone surrogate written as an escape is not well-formed text either.
        `{"id":"${ID(3)}","nom":"A\\ud800","robe":"Noir"}\n`
      ))
      const { data } = yield* ingestSource(jsonl)
      expect(data.size).toBe(4)
      expect(data.anomalies).toMatchObject({ textes_invalides: 3, types_invalides: 4, robe_absente: 0 })
      expect(Array.from({ length: 4 }, (_, row) => nomOf(data, row))).toEqual(["BON", "", "", ""])
      expect(JSON.stringify(data.anomalies)).not.toContain("\uFFFD")

      const [before, after] = recordToCsvRow({ id: ID(1), nom: "MAUX", robe: "Bai" }).split("MAUX")
      const csv = writeFile(tmp.path("unusable.csv"), bytes(
        `${CSV_HEADER}\n${recordToCsvRow({ id: ID(0), nom: "BON", robe: "Bai" })}\n`,
        before!, "MAU", [0xed, 0xa0, 0x80], after!, "\n"
      ))
      const read = yield* ingestSource(csv)
      expect(read.data.size).toBe(2)
      expect(read.data.anomalies).toMatchObject({ textes_invalides: 1, types_invalides: 0 })
      expect(nomOf(read.data, 1)).toBe("")
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
