/**
 * The whole extract as one Parquet file (issue 30, item 4), written by `hyparquet-writer` (pure
 * JavaScript, one dependency; the choice and its measure in docs/decisions.md): typed columns, the
 * CSV export's columns in its order (`EXPORT_CSV_COLUMNS`: integers INT32, `_fiche_disponible`
 * BOOLEAN, the rest UTF-8 strings, absent values null), `performances` as a JSON string (logical
 * type JSON), snappy-compressed, row groups of 100 000 records. Written to a temporary name and
 * renamed: a file under its final name is always whole.
 */
import { type DatasetData, equide, type Equide, type Reference } from "@equides/domain"
import { type ColumnSource, fileWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer"
import { renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { exportFileName } from "./exportBody.ts"

/** Records per row group (and per batch built in memory). */
export const PARQUET_ROW_GROUP = 100_000

export const parquetFileName = (data: DatasetData): string => exportFileName(data, "parquet")

export const parquetPath = (data: DatasetData, directory: string): string => join(directory, parquetFileName(data))

const LINKS = ["pere", "mere", "pere_de_mere"] as const

/** The columns of records `from`..`to` − 1 (file order). */
export const parquetColumns = (data: DatasetData, from: number, to: number): Array<ColumnSource> => {
  const n = to - from
  const text = (): Array<string | null> => new Array<string | null>(n).fill(null)
  const id = text(), nom = text(), slug = text(), url = text(), race = text(), sexe = text(), robe = text(), filiation = text()
  const descendants = new Array<number>(n)
  const annee = new Array<number | null>(n).fill(null)
  const links = LINKS.map(() => ({ id: text(), nom: text(), race: text(), fiche: new Array<boolean | null>(n).fill(null) }))
  // The writer encodes a JSON column's values itself (`JSON.stringify`).
  const performances = new Array<Equide["performances"] | null>(n).fill(null)
  for (let i = 0; i < n; i++) {
    const record: Equide = equide(data, from + i)
    id[i] = record.id
    nom[i] = record.nom
    slug[i] = record.slug
    url[i] = record.url
    race[i] = record.race
    sexe[i] = record.sexe
    descendants[i] = record.nombre_de_descendants
    annee[i] = record.annee_naissance ?? null
    robe[i] = record.robe ?? null
    filiation[i] = record.filiation_texte ?? null
    LINKS.forEach((name, k) => {
      const link: Reference | undefined = record[name]
      if (link === undefined) return
      const columns = links[k]
      columns.id[i] = link.id ?? null
      columns.nom[i] = link.nom ?? null
      columns.race[i] = link.race ?? null
      columns.fiche[i] = link.fiche_disponible ?? null
    })
    performances[i] = record.performances ?? null
  }
  return [
    { name: "id", data: id, type: "STRING", nullable: false },
    { name: "nom", data: nom, type: "STRING", nullable: false },
    { name: "slug", data: slug, type: "STRING", nullable: false },
    { name: "url", data: url, type: "STRING", nullable: false },
    { name: "race", data: race, type: "STRING", nullable: false },
    { name: "sexe", data: sexe, type: "STRING", nullable: false },
    { name: "nombre_de_descendants", data: descendants, type: "INT32", nullable: false },
    { name: "annee_naissance", data: annee, type: "INT32" },
    { name: "robe", data: robe, type: "STRING" },
    { name: "filiation_texte", data: filiation, type: "STRING" },
    ...LINKS.flatMap((name, k): Array<ColumnSource> => [
      { name: `${name}_id`, data: links[k].id, type: "STRING" },
      { name: `${name}_nom`, data: links[k].nom, type: "STRING" },
      { name: `${name}_race`, data: links[k].race, type: "STRING" },
      { name: `${name}_fiche_disponible`, data: links[k].fiche, type: "BOOLEAN" }
    ]),
    { name: "performances", data: performances, type: "JSON" }
  ]
}

/** Writes every record of `data` to `path` (through `path` + a temporary suffix, then renamed). */
export const writeParquet = (data: DatasetData, path: string): void => {
  const partial = `${path}.${process.pid}.partial`
  try {
    const first = parquetColumns(data, 0, Math.min(data.size, PARQUET_ROW_GROUP))
    const writer = new ParquetWriter({ writer: fileWriter(partial), schema: schemaFromColumnData({ columnData: first }), createdBy: "equides-api" })
    writer.write({ columnData: first, rowGroupSize: PARQUET_ROW_GROUP })
    for (let from = PARQUET_ROW_GROUP; from < data.size; from += PARQUET_ROW_GROUP) {
      writer.write({ columnData: parquetColumns(data, from, Math.min(data.size, from + PARQUET_ROW_GROUP)), rowGroupSize: PARQUET_ROW_GROUP })
    }
    writer.finish()
    renameSync(partial, path)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
}
