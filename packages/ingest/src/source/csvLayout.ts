/**
 * Where each field sits in a CSV file, learnt from its header (columns may come in any order),
 * and the row → `SourceRecord` mapping, under the same rules as the JSON Lines reader.
 */
import { LINK_FIELDS, CSV_COLUMNS } from "../format/csvColumns.ts"
import type { SourceLink, SourceRecord } from "@equides/domain"
import { errorMessage } from "./formatReader.ts"
import { describeJsonType, droppedValues, linkOf, normalizePerformances, markedText, presentInteger, startRecord } from "./normalize.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

type LinkCells = readonly [id: number, nom: number, race: number, pays: number, alias: number]

export interface CsvLayout {
  readonly columnCount: number
  readonly id: number
  readonly slug: number
  readonly nom: number
  readonly race: number
  readonly sexe: number
  readonly robe: number
  readonly annee_naissance: number
  readonly statut_reproducteur: number
  readonly record: number
  readonly filiation_texte: number
  readonly pere: LinkCells
  readonly mere: LinkCells
  readonly pere_de_mere: LinkCells
  readonly performances: number
}

const list = (names: ReadonlyArray<string>): string => names.join(", ")

/** The layout, or why the header is not the export's. */
export const csvLayout = (header: ReadonlyArray<string>): CsvLayout | string => {
  const position = new Map<string, number>()
  const known = new Set<string>(CSV_COLUMNS)
  const unknown: Array<string> = []
  const repeated: Array<string> = []
  header.forEach((name, i) => {
    if (!known.has(name)) unknown.push(JSON.stringify(name))
    else if (position.has(name)) repeated.push(name)
    else position.set(name, i)
  })
  const missing = CSV_COLUMNS.filter((name) => !position.has(name))
  if (unknown.length > 0 || repeated.length > 0 || missing.length > 0) {
    const problems = [
      missing.length > 0 ? `missing ${list(missing)}` : undefined,
      unknown.length > 0 ? `unknown ${list(unknown)}` : undefined,
      repeated.length > 0 ? `repeated ${list(repeated)}` : undefined
    ].filter((problem) => problem !== undefined)
    return `bad CSV header: expected the ${CSV_COLUMNS.length} export columns in any order; ${problems.join("; ")}`
  }
  const at = (name: string): number => position.get(name)!
  const link = (prefix: string): LinkCells => {
    const [id, nom, race, pays, alias] = LINK_FIELDS.map((field) => at(`${prefix}_${field}`))
    return [id!, nom!, race!, pays!, alias!]
  }
  return {
    columnCount: header.length,
    id: at("id"),
    slug: at("slug"),
    nom: at("nom"),
    race: at("race"),
    sexe: at("sexe"),
    robe: at("robe"),
    annee_naissance: at("annee_naissance"),
    statut_reproducteur: at("statut_reproducteur"),
    record: at("record"),
    filiation_texte: at("filiation_texte"),
    pere: link("pere"),
    mere: link("mere"),
    pere_de_mere: link("pere_de_mere"),
    performances: at("performances")
  }
}

const INTEGER_TEXT = /^-?[0-9]+$/

const cellText = (cells: ReadonlyArray<string>, at: number): string | undefined => {
  const cell = cells[at]
  return cell.length === 0 ? undefined : markedText(cell)
}

const cellLink = (cells: ReadonlyArray<string>, at: LinkCells): SourceLink | undefined =>
  linkOf(
    cellText(cells, at[0]),
    cellText(cells, at[1]),
    cellText(cells, at[2]),
    cellText(cells, at[3]),
    cellText(cells, at[4])
  )

/**
 * The record of a row of `layout.columnCount` cells, or why its `performances` cell is invalid.
 * `invalidUtf8`: the file held bytes that are not UTF-8, marked (`markInvalidUtf8`).
 */
export const csvRowToRecord = (cells: ReadonlyArray<string>, layout: CsvLayout, invalidUtf8 = false): SourceRecord | string => {
  startRecord(invalidUtf8)
  const record: Mutable<SourceRecord> = {}
  let text = cellText(cells, layout.id)
  if (text !== undefined) record.id = text
  if ((text = cellText(cells, layout.slug)) !== undefined) record.slug = text
  if ((text = cellText(cells, layout.nom)) !== undefined) record.nom = text
  if ((text = cellText(cells, layout.race)) !== undefined) record.race = text
  if ((text = cellText(cells, layout.sexe)) !== undefined) record.sexe = text
  if ((text = cellText(cells, layout.robe)) !== undefined) record.robe = text
  // The year is text here: only what a JSON integer would have been written as counts.
  text = cellText(cells, layout.annee_naissance)
  if (text !== undefined && INTEGER_TEXT.test(text)) {
    const annee = presentInteger(Number(text))
    if (annee !== undefined) record.annee_naissance = annee
  }
  if ((text = cellText(cells, layout.statut_reproducteur)) !== undefined) record.statut_reproducteur = text
  if ((text = cellText(cells, layout.record)) !== undefined) record.record = text
  if ((text = cellText(cells, layout.filiation_texte)) !== undefined) record.filiation_texte = text
  const pere = cellLink(cells, layout.pere)
  if (pere !== undefined) record.pere = pere
  const mere = cellLink(cells, layout.mere)
  if (mere !== undefined) record.mere = mere
  const pereDeMere = cellLink(cells, layout.pere_de_mere)
  if (pereDeMere !== undefined) record.pere_de_mere = pereDeMere
  text = cellText(cells, layout.performances)
  if (text !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      return `invalid performances cell: ${errorMessage(error)}`
    }
    // The writer leaves the cell empty rather than writing anything but an array.
    if (value !== null && !Array.isArray(value)) {
      return `invalid performances cell: expected a JSON array, found ${describeJsonType(value)}`
    }
    const performances = normalizePerformances(value)
    if (performances !== undefined) record.performances = performances
  }
  const rejected = droppedValues()
  if (rejected !== undefined) record.rejected = rejected
  return record
}
