/**
 * The body of a selection's export (design 7), written a chunk at a time: NDJSON, each line the
 * bytes `GET /v1/equides/{id}` answers and a line feed; or CSV (RFC 4180, CRLF) with each link
 * flattened into four cells and the performances as one JSON cell. Both written as bytes by the
 * domain's record writers (`api/equideBody.ts`).
 * Pure: the server decides where chunks are written and when (back-pressure, quota).
 */
import {
  type DatasetData,
  emptyWriter,
  EXPORT_CSV_TYPE,
  type EXPORT_FORMATS,
  EXPORT_NDJSON_TYPE,
  type FilterInput,
  type QueryResult,
  resolveFilters,
  type RowBlocks,
  selectionBlocks,
  writeEquideCsv,
  writeEquideJson,
  type Writer
} from "@equides/domain"
import * as Result from "effect/Result"
import type { Own } from "../own.ts"

export type ExportFormat = typeof EXPORT_FORMATS[number]

const LINKS = ["pere", "mere", "pere_de_mere"] as const
const LINK_FIELDS = ["id", "nom", "race", "fiche_disponible"] as const

/** The CSV columns, in order (issue 30). */
export const EXPORT_CSV_COLUMNS: ReadonlyArray<string> = [
  "id",
  "nom",
  "slug",
  "url",
  "race",
  "sexe",
  "nombre_de_descendants",
  "annee_naissance",
  "robe",
  "filiation_texte",
  ...LINKS.flatMap((link) => LINK_FIELDS.map((field) => `${link}_${field}`)),
  "performances"
]

/** The header line, CRLF included. */
export const CSV_HEADER_LINE: Uint8Array = new TextEncoder().encode(`${EXPORT_CSV_COLUMNS.join(",")}\r\n`)

/** One record's NDJSON line: the record route's bytes and a line feed. */
const ndjsonLine = (w: Writer, data: DatasetData, row: number): void => {
  writeEquideJson(w, data, row)
  w.ascii("\n")
}

/**
 * The rows of a selection to export, in file order, read a block at a time (`selectionBlocks`:
 * the first records are written before the whole selection is known), and where the export is in
 * them.
 */
export interface ExportRows {
  readonly blocks: RowBlocks
  block: Uint32Array
  /** The next row's index in `block`. */
  at: number
  /** Every row was written. */
  done: boolean
}

/** The rows `query`'s filters select, or why they are refused (a 400 before any byte). */
export const exportRows = (data: DatasetData, query: FilterInput): QueryResult<ExportRows> =>
  Result.map(resolveFilters(data, query), (filters) => ({ blocks: selectionBlocks(data, filters), block: new Uint32Array(0), at: 0, done: false }))

/**
 * The next records of `rows` written in `format` until about `chunkBytes` (the rows' position moved
 * past them). One block of the selection is read per chunk at most, so that a chunk's work stays
 * bounded where few rows pass: such a chunk may hold no record (`rows.done` tells the end).
 */
export const exportChunk = (data: DatasetData, rows: ExportRows, format: ExportFormat, chunkBytes: number): Uint8Array => {
  // Written as bytes into the thread's reusable buffer, then copied out once (the chunk is sent
  // while the buffer writes the next).
  const w = emptyWriter()
  const write = format === "ndjson" ? ndjsonLine : writeEquideCsv
  let read = false
  while (w.length < chunkBytes) {
    if (rows.at < rows.block.length) {
      write(w, data, rows.block[rows.at++])
      continue
    }
    if (read) break
    read = true
    const block = rows.blocks.next()
    if (block === undefined) {
      rows.done = true
      break
    }
    rows.block = block
    rows.at = 0
  }
  return w.take()
}

/** `equides-<the dataset fingerprint's first 12 hex digits>.<extension>`: one name per dataset and format. */
export const exportFileName = (data: DatasetData, extension: ExportFormat | "parquet"): string =>
  `equides-${data.provenance.fingerprint.slice(0, 12)}.${extension}`

/** The head of an export (its body streamed apart); a 304 when `If-None-Match: *` asked for any current representation. */
export const exportHead = (data: DatasetData, format: ExportFormat, wildcard: boolean): Own =>
  wildcard ? { status: 304, headers: {}, body: undefined } : {
    status: 200,
    headers: {
      "content-type": format === "csv" ? EXPORT_CSV_TYPE : EXPORT_NDJSON_TYPE,
      "content-disposition": `attachment; filename="${exportFileName(data, format)}"`
    },
    body: undefined
  }
