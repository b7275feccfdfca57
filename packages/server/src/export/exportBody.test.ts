/**
 * The export's bytes against the records they write (a naive model: the record route's schema
 * encoding for NDJSON; for CSV each value of `equide(…)` through the ingest's `csvCell`), over
 * generated datasets of any Unicode and over the embedded sample, chunk by chunk.
 */
import { describe, expect, it } from "@effect/vitest"
import { type DatasetData, equide, Equide, type Equide as EquideType, type FilterInput, type Reference } from "@equides/domain"
import { jsonTextEncoder } from "@equides/domain/answers"
import { filterInputArbitrary, naiveRows, naiveSelect, spelledDatasetArbitrary } from "@equides/domain/testing"
import { csvCell, loadDataset, SAMPLE_FILE } from "@equides/ingest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { CSV_HEADER_LINE, exportChunk, type ExportFormat, exportRows } from "./exportBody.ts"

const text = new TextDecoder("utf-8", { ignoreBOM: true })

const byRecordRoute = jsonTextEncoder(Equide)

const optional = (value: string | number | boolean | undefined): string => (value === undefined ? "" : csvCell(String(value)))

const linkCells = (link: Reference | undefined): string =>
  link === undefined ? ",,," : `${optional(link.id)},${optional(link.nom)},${optional(link.race)},${optional(link.fiche_disponible)}`

/** The CSV line of a record, cell by cell (issue 30's columns). */
const csvLine = (record: EquideType): string =>
  [
    csvCell(record.id), csvCell(record.nom), csvCell(record.slug), csvCell(record.url), csvCell(record.race), record.sexe,
    String(record.nombre_de_descendants), optional(record.annee_naissance), optional(record.robe), optional(record.filiation_texte),
    linkCells(record.pere), linkCells(record.mere), linkCells(record.pere_de_mere),
    record.performances === undefined ? "" : csvCell(JSON.stringify(record.performances))
  ].join(",") + "\r\n"

const expected = (data: DatasetData, rows: ReadonlyArray<number>, format: ExportFormat): string =>
  rows.map((row) => (format === "ndjson" ? `${byRecordRoute(equide(data, row))}\n` : csvLine(equide(data, row)))).join("")

/** The body of the rows `input` selects written chunk by chunk, about `chunkBytes` each. */
const written = (data: DatasetData, input: FilterInput, format: ExportFormat, chunkBytes: number): string => {
  const rows = exportRows(data, input)
  if (Result.isFailure(rows)) throw new Error(rows.failure.detail)
  const chunks: Array<string> = []
  while (!rows.success.done) chunks.push(text.decode(exportChunk(data, rows.success, format, chunkBytes)))
  return chunks.join("")
}

describe("exportChunk", () => {
  it("writes every record as the record route (NDJSON) and as its values' CSV cells: any Unicode, quotes, commas, line breaks", () => {
    fc.assert(
      fc.property(
        spelledDatasetArbitrary({ minLength: 1, withAnyText: true }),
        fc.constantFrom<ExportFormat>("ndjson", "csv"),
        fc.integer({ min: 1, max: 2000 }),
        ({ data }, format, chunkBytes) => {
          const all = Array.from({ length: data.size }, (_, row) => row)
          expect(written(data, {}, format, chunkBytes)).toBe(expected(data, all, format))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("writes the rows a naive evaluation of the filters keeps, in file order, chunk after chunk", () => {
    fc.assert(
      fc.property(
        spelledDatasetArbitrary({ minLength: 1 }).chain((g) => fc.tuple(fc.constant(g), filterInputArbitrary(g.records))),
        fc.constantFrom<ExportFormat>("ndjson", "csv"),
        fc.integer({ min: 1, max: 2000 }),
        ([{ data, records }, input], format, chunkBytes) => {
          expect(written(data, input, format, chunkBytes)).toBe(expected(data, naiveSelect(naiveRows(records), input), format))
        }
      ),
      { numRuns: 200 }
    )
  })

  it.effect("writes the embedded sample's every record as the naive model does, in 32 KiB chunks", () =>
    Effect.gen(function*() {
      const data = yield* loadDataset(SAMPLE_FILE)
      const all = Array.from({ length: data.size }, (_, row) => row)
      for (const format of ["ndjson", "csv"] as const) expect(written(data, {}, format, 32 * 1024)).toBe(expected(data, all, format))
    }), 60_000)

  it("the CSV header names the issue's columns, in order", () => {
    expect(text.decode(CSV_HEADER_LINE)).toBe(
      "id,nom,slug,url,race,sexe,nombre_de_descendants,annee_naissance,robe,filiation_texte," +
        "pere_id,pere_nom,pere_race,pere_fiche_disponible,mere_id,mere_nom,mere_race,mere_fiche_disponible," +
        "pere_de_mere_id,pere_de_mere_nom,pere_de_mere_race,pere_de_mere_fiche_disponible,performances\r\n"
    )
  })
})
