/**
 * The whole extract as one Parquet file (issue 30, item 4), written by `hyparquet-writer` (pure
 * JavaScript, one dependency; the choice and its measure in docs/decisions.md): typed columns, the
 * CSV export's columns in its order (`EXPORT_CSV_COLUMNS`: integers INT32, `_fiche_disponible`
 * BOOLEAN, the rest UTF-8 strings, absent values null), `performances` as a JSON string (logical
 * type JSON), compressed with zstd (Node's own, level 1), row groups of 100 000 records. Written to
 * a temporary name and renamed: a file under its final name is always whole.
 *
 * A row group's texts are written as UTF-8 by the record writers the exports use
 * (`api/equideBody.ts`, raw: no escapes) into one buffer, and handed to the writer as views of it:
 * no record object, no string decoded from the dataset then encoded again by the writer. The
 * columns of a few values (breeds, coats, sexes, link breeds) are dictionary-encoded, the others
 * plain and without statistics (ids, names, slugs, URLs, filiations: a minimum and a maximum over
 * every row group's spread of them would let a reader skip nothing).
 */
import {
  type DatasetData,
  type Dictionary,
  dictionaryValue,
  hasFiliation,
  hasLink,
  type LinkColumn,
  linkName,
  NO_YEAR,
  performancesOf,
  SEXES,
  writeFiliation,
  writeLinkNom,
  writeSlug,
  writeUrl,
  Writer
} from "@equides/domain"
import { type ColumnSource, fileWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer"
import { readdirSync, renameSync, rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { constants, zstdCompressSync } from "node:zlib"
import { exportFileName } from "./exportBody.ts"

/** Records per row group (and per batch built in memory). */
export const PARQUET_ROW_GROUP = 100_000

export const parquetFileName = (data: DatasetData): string => exportFileName(data, "parquet")

export const parquetPath = (data: DatasetData, directory: string): string => join(directory, parquetFileName(data))

const LINKS = ["pere", "mere", "pere_de_mere"] as const

/** A text column of a row group: each value's bytes in the row group's buffer (start −1: null). */
class TextColumn {
  readonly starts: Int32Array
  readonly ends: Int32Array

  constructor(n: number) {
    this.starts = new Int32Array(n).fill(-1)
    this.ends = new Int32Array(n)
  }

  /** Value `i` starts at `w`'s end: the caller writes it, then `close`s it. */
  open(w: Writer, i: number): void {
    this.starts[i] = w.length
  }

  close(w: Writer, i: number): void {
    this.ends[i] = w.length
  }

  /** The values as views of `buffer` (the writer's final one). */
  values(buffer: Uint8Array): Array<Uint8Array | null> {
    const { starts, ends } = this
    const out = new Array<Uint8Array | null>(starts.length)
    for (let i = 0; i < starts.length; i++) out[i] = starts[i] < 0 ? null : buffer.subarray(starts[i], ends[i])
    return out
  }
}

/**
 * A column of a dictionary's codes as one string per code, shared by its rows: the writer
 * dictionary-encodes strings by value, where byte arrays are hashed one by one. Only the codes the
 * rows hold are decoded (a polluted breed column has hundreds of thousands of values).
 */
const dictionaryColumn = (codes: ArrayLike<number>, values: Dictionary, from: number, n: number, absent: number | undefined) => {
  const texts = new Array<string | undefined>(values.offsets.length - 1)
  const out = new Array<string | null>(n)
  for (let i = 0; i < n; i++) {
    const code = codes[from + i]
    out[i] = code === absent ? null : (texts[code] ??= dictionaryValue(values, code))
  }
  return out
}

/** The columns of records `from`..`to` − 1 (file order). */
export const parquetColumns = (data: DatasetData, from: number, to: number): Array<ColumnSource> => {
  const n = to - from
  const w = new Writer()
  w.reserve(n * 256)
  const id = new TextColumn(n), nom = new TextColumn(n), slug = new TextColumn(n), url = new TextColumn(n), filiation = new TextColumn(n)
  const descendants = new Int32Array(n)
  const annee = new Array<number | null>(n).fill(null)
  const links = LINKS.map(() => ({ id: new TextColumn(n), nom: new TextColumn(n), fiche: new Array<boolean | null>(n).fill(null) }))
  // The writer encodes a JSON column's values itself (`JSON.stringify`).
  const performances = new Array<ReturnType<typeof performancesOf> | null>(n).fill(null)
  const nomArena = data.nom
  for (let i = 0; i < n; i++) {
    const row = from + i
    id.open(w, i)
    w.id(data, row)
    id.close(w, i)
    nom.open(w, i)
    w.raw(nomArena.bytes, nomArena.offsets[row], nomArena.offsets[row + 1])
    nom.close(w, i)
    slug.open(w, i)
    writeSlug(w, data, row, "raw")
    slug.close(w, i)
    url.open(w, i)
    writeUrl(w, data, row, "raw")
    url.close(w, i)
    descendants[i] = data.progeny.offsets[row + 1] - data.progeny.offsets[row]
    if (data.year[row] !== NO_YEAR) annee[i] = data.year[row]
    if (hasFiliation(data, row)) {
      filiation.open(w, i)
      writeFiliation(w, data, row, "raw")
      filiation.close(w, i)
    }
    for (let k = 0; k < LINKS.length; k++) {
      const column: LinkColumn = data.links[LINKS[k]]
      if (!hasLink(column, row)) continue
      const parent = column.row[row]
      const out = links[k]
      if (parent >= 0) {
        out.id.open(w, i)
        w.id(data, parent)
        out.id.close(w, i)
      }
      if (linkName(column, row) !== 0) {
        out.nom.open(w, i)
        writeLinkNom(w, data, column, row, "raw")
        out.nom.close(w, i)
      }
      out.fiche[i] = parent >= 0
    }
    performances[i] = performancesOf(data, row) ?? null
  }
  const buffer = w.buffer
  // Names, slugs, URLs and ids spread over the whole alphabet in every row group: a minimum and a
  // maximum would let a reader skip none, and cost a comparison of every value.
  const text = (name: string, column: TextColumn, nullable: boolean): ColumnSource => ({
    name,
    data: column.values(buffer),
    type: "STRING",
    nullable,
    encoding: "PLAIN",
    statistics: false
  })
  const dictionary = (name: string, values: Array<string | null>, nullable: boolean): ColumnSource => ({
    name,
    data: values,
    type: "STRING",
    nullable,
    encoding: "RLE_DICTIONARY"
  })
  return [
    text("id", id, false),
    text("nom", nom, false),
    text("slug", slug, false),
    text("url", url, false),
    dictionary("race", dictionaryColumn(data.race.codes, data.race.values, from, n, undefined), false),
    dictionary("sexe", Array.from({ length: n }, (_, i) => SEXES[data.sexe.codes[from + i] - 1]), false),
    { name: "nombre_de_descendants", data: descendants, type: "INT32", nullable: false },
    { name: "annee_naissance", data: annee, type: "INT32" },
    dictionary("robe", dictionaryColumn(data.robe.codes, data.robe.values, from, n, 0), true),
    text("filiation_texte", filiation, true),
    ...LINKS.flatMap((name, k): Array<ColumnSource> => [
      text(`${name}_id`, links[k].id, true),
      // Sires and dams recur, but a dictionary's hashing costs more than zstd's finding them again.
      text(`${name}_nom`, links[k].nom, true),
      dictionary(`${name}_race`, dictionaryColumn(data.links[name].race, data.links.races, from, n, 0), true),
      { name: `${name}_fiche_disponible`, data: links[k].fiche, type: "BOOLEAN" }
    ]),
    { name: "performances", data: performances, type: "JSON" }
  ]
}

/** zstd at level 1: Node's own (native), faster than the writer's snappy in JavaScript and smaller. */
const zstd = (input: Uint8Array): Uint8Array => zstdCompressSync(input, { params: { [constants.ZSTD_c_compressionLevel]: 1 } })

/** The process `pid` runs (a process of another user's counts: it cannot be signalled, but it lives). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Removes what writes of `path` by processes that no longer run left behind (a server stopped
 * mid-write: `path`.<pid>.partial). A running process's partial file is its write, left alone
 * (replicas may share `EXPORT_DIR`).
 */
export const removeOrphanPartials = (path: string): void => {
  const directory = dirname(path)
  const prefix = `${basename(path)}.`
  for (const entry of readdirSync(directory)) {
    if (!entry.startsWith(prefix) || !entry.endsWith(".partial")) continue
    const pid = entry.slice(prefix.length, -".partial".length)
    if (/^\d+$/.test(pid) && Number(pid) !== process.pid && !alive(Number(pid))) rmSync(join(directory, entry), { force: true })
  }
}

/** Writes every record of `data` to `path` (through `path` + a temporary suffix, then renamed), `rowGroup` records a row group. */
export const writeParquet = (data: DatasetData, path: string, rowGroup: number = PARQUET_ROW_GROUP): void => {
  const partial = `${path}.${process.pid}.partial`
  try {
    removeOrphanPartials(path)
    const first = parquetColumns(data, 0, Math.min(data.size, rowGroup))
    const writer = new ParquetWriter({
      writer: fileWriter(partial),
      schema: schemaFromColumnData({ columnData: first }),
      codec: "ZSTD",
      compressors: { ZSTD: zstd },
      createdBy: "equides-api"
    })
    writer.write({ columnData: first, rowGroupSize: rowGroup })
    for (let from = rowGroup; from < data.size; from += rowGroup) {
      writer.write({ columnData: parquetColumns(data, from, Math.min(data.size, from + rowGroup)), rowGroupSize: rowGroup })
    }
    writer.finish()
    renameSync(partial, path)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
}
