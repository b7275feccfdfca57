/**
 * A full record written straight as UTF-8 bytes for the exports (issue 30): the JSON text
 * `GET /v1/equides/{id}` answers (`jsonTextEncoder(Equide)` of `equide(…)`), and the export's CSV
 * line (the same values, each link in four cells, the performances' JSON in one). As for the
 * list's summaries (`resumePageBody.ts`), names, breeds and coats are copied from the dataset's
 * UTF-8 with the escapes their format needs, the spelled filiation is written from the links'
 * bytes, and no object is built per record but the performances'. Checked byte for byte against
 * the schema's encoding and the CSV of the records by property tests (`equideBody.test.ts`,
 * `export/exportBody.test.ts` in the server).
 */
import { postingsCount } from "../dataset/columns.ts"
import { type DatasetData, LINK_NAME_OF_ROW, type LinkColumn, NO_YEAR } from "../dataset/DatasetData.ts"
import { linkName } from "../dataset/linkNames.ts"
import { performancesAt } from "../dataset/performances.ts"
import { SLUG_BYTES_PER_NAME_BYTE, slugify, slugUtf8 } from "../text/fold.ts"
import { nomOf } from "../query/record.ts"
import { SEXES } from "../vocabulary.ts"
import { utf8, type Writer } from "./jsonBytes.ts"

/** How a text's UTF-8 goes into the body: escaped inside a JSON string, or as it is (a CSV cell quoted afterwards, a Parquet value). */
export type TextMode = "json" | "raw"

const put = (w: Writer, mode: TextMode, source: Uint8Array, start: number, end: number): void =>
  mode === "json" ? w.jsonContent(source, start, end) : w.raw(source, start, end)

const URL_HEAD = utf8.encode("https://infochevaux.ifce.fr/fr/")
const URL_TAIL = utf8.encode("/infos-generales")
const PAR = utf8.encode("Par ")
const INCONNU = utf8.encode("INCONNU")
const ET = utf8.encode(" et ")
const PAR_INNER = utf8.encode(" par ")
const SEXE_TEXT = SEXES.map((sexe) => utf8.encode(sexe))

/**
 * The slug as served (`slugOf`), without quotes. A deduced slug is `slugify`'s (ASCII letters,
 * digits and dashes), written from the name's bytes when the table knows its characters.
 */
export const writeSlug = (w: Writer, data: DatasetData, row: number, mode: TextMode): void => {
  if (data.slugDeduced[row] !== 1) return put(w, mode, data.slug.bytes, data.slug.offsets[row], data.slug.offsets[row + 1])
  const start = data.nom.offsets[row]
  const end = data.nom.offsets[row + 1]
  w.reserve((end - start) * SLUG_BYTES_PER_NAME_BYTE)
  const written = slugUtf8(data.nom.bytes, start, end, w.buffer, w.length)
  if (written >= 0) w.length = written
  else w.ascii(slugify(nomOf(data, row)))
}

/** `urlFiche(slug, id)`, without quotes. */
export const writeUrl = (w: Writer, data: DatasetData, row: number, mode: TextMode): void => {
  w.bytes(URL_HEAD)
  writeSlug(w, data, row, mode)
  w.ascii("-")
  w.id(data, row)
  w.bytes(URL_TAIL)
}

/** The link's name as `linkReference` reads it (present when its code is not 0). */
export const writeLinkNom = (w: Writer, data: DatasetData, column: LinkColumn, row: number, mode: TextMode): void => {
  const name = linkName(column, row)
  if (name === LINK_NAME_OF_ROW) {
    const parent = column.row[row]
    put(w, mode, data.nom.bytes, data.nom.offsets[parent], data.nom.offsets[parent + 1])
  } else put(w, mode, data.links.names.bytes, data.links.names.offsets[name], data.links.names.offsets[name + 1])
}

const writeLinkRace = (w: Writer, data: DatasetData, column: LinkColumn, row: number, mode: TextMode): void => {
  const races = data.links.races
  const code = column.race[row]
  put(w, mode, races.bytes, races.offsets[code], races.offsets[code + 1])
}

const ABSENT = 0
const UNSPELLABLE = 1
const SPELLED = 2

/** What `spellFiliation` reads of a link: neither name nor breed, only one of them, or both. */
const partOf = (column: LinkColumn, row: number): number => {
  const named = linkName(column, row) !== 0
  const raced = column.race[row] !== 0
  return named && raced ? SPELLED : named || raced ? UNSPELLABLE : ABSENT
}

/** Whether the record has a `filiation_texte` (`equide`: a stored text not empty, or a spelled one that can be spelled). */
export const hasFiliation = (data: DatasetData, row: number): boolean => {
  if (data.filiationSpelled[row] !== 1) return data.filiation.offsets[row + 1] > data.filiation.offsets[row]
  const { pere, mere, pere_de_mere } = data.links
  if (partOf(pere, row) === UNSPELLABLE) return false
  const mother = partOf(mere, row)
  if (mother === ABSENT) return true
  return mother === SPELLED && partOf(pere_de_mere, row) !== UNSPELLABLE
}

const writePart = (w: Writer, data: DatasetData, column: LinkColumn, row: number, mode: TextMode): void => {
  writeLinkNom(w, data, column, row, mode)
  w.ascii(" ")
  writeLinkRace(w, data, column, row, mode)
}

/** The record's `filiation_texte` (`hasFiliation` true), without quotes: stored, or spelled as `spellFiliation` does. */
export const writeFiliation = (w: Writer, data: DatasetData, row: number, mode: TextMode): void => {
  if (data.filiationSpelled[row] !== 1) return put(w, mode, data.filiation.bytes, data.filiation.offsets[row], data.filiation.offsets[row + 1])
  const { pere, mere, pere_de_mere } = data.links
  w.bytes(PAR)
  if (partOf(pere, row) === ABSENT) w.bytes(INCONNU)
  else writePart(w, data, pere, row, mode)
  if (partOf(mere, row) === ABSENT) return
  w.bytes(ET)
  writePart(w, data, mere, row, mode)
  if (partOf(pere_de_mere, row) === ABSENT) return
  w.bytes(PAR_INNER)
  writePart(w, data, pere_de_mere, row, mode)
}

/** Whether `linkReference` gives a Reference (the link carries a row, a name or a breed). */
export const hasLink = (column: LinkColumn, row: number): boolean => column.row[row] >= 0 || linkName(column, row) !== 0 || column.race[row] !== 0

/** The performances' JSON text (`JSON.stringify` writes them as the schema does: its keys in its order, plain values). */
const performancesText = (data: DatasetData, row: number): string | undefined => {
  const performances = performancesAt(data.performances, row)
  return performances === undefined ? undefined : JSON.stringify(performances)
}

// The record's fixed parts, in the schema's key order.
const ID = utf8.encode(`{"id":"`)
const NOM = utf8.encode(`","nom":"`)
const SLUG = utf8.encode(`","slug":"`)
const URL = utf8.encode(`","url":"`)
const RACE = utf8.encode(`","race":"`)
const SEXE_DESCENDANTS = SEXES.map((sexe) => utf8.encode(`","sexe":${JSON.stringify(sexe)},"nombre_de_descendants":`))
const YEAR = utf8.encode(`,"annee_naissance":`)
const ROBE = utf8.encode(`,"robe":"`)
const FILIATION = utf8.encode(`,"filiation_texte":"`)
const QUOTE = utf8.encode(`"`)
const LINK_KEYS = [utf8.encode(`,"pere":{`), utf8.encode(`,"mere":{`), utf8.encode(`,"pere_de_mere":{`)]
const REF_ID = utf8.encode(`"id":"`)
const REF_NOM = utf8.encode(`"nom":"`)
const REF_RACE = utf8.encode(`"race":"`)
const FICHE = [utf8.encode(`"fiche_disponible":false}`), utf8.encode(`"fiche_disponible":true}`)]
const QUOTE_COMMA = utf8.encode(`",`)
const PERFORMANCES = utf8.encode(`,"performances":`)
const CLOSE = utf8.encode("}")

/** `linkReference(…)` as JSON: `{` written by the caller, the present keys in the schema's order, `fiche_disponible` last. */
const writeReference = (w: Writer, data: DatasetData, column: LinkColumn, row: number): void => {
  const parent = column.row[row]
  if (parent >= 0) {
    w.bytes(REF_ID)
    w.id(data, parent)
    w.bytes(QUOTE_COMMA)
  }
  if (linkName(column, row) !== 0) {
    w.bytes(REF_NOM)
    writeLinkNom(w, data, column, row, "json")
    w.bytes(QUOTE_COMMA)
  }
  if (column.race[row] !== 0) {
    w.bytes(REF_RACE)
    writeLinkRace(w, data, column, row, "json")
    w.bytes(QUOTE_COMMA)
  }
  w.bytes(FICHE[parent >= 0 ? 1 : 0])
}

/** The record of `row` as `GET /v1/equides/{id}` answers it (no line feed). */
export const writeEquideJson = (w: Writer, data: DatasetData, row: number): void => {
  w.bytes(ID)
  w.id(data, row)
  w.bytes(NOM)
  w.jsonContent(data.nom.bytes, data.nom.offsets[row], data.nom.offsets[row + 1])
  w.bytes(SLUG)
  writeSlug(w, data, row, "json")
  w.bytes(URL)
  writeUrl(w, data, row, "json")
  w.bytes(RACE)
  const race = data.race.values
  const raceCode = data.race.codes[row]
  w.jsonContent(race.bytes, race.offsets[raceCode], race.offsets[raceCode + 1])
  w.bytes(SEXE_DESCENDANTS[data.sexe.codes[row] - 1])
  w.int(postingsCount(data.progeny, row))
  const year = data.year[row]
  if (year !== NO_YEAR) {
    w.bytes(YEAR)
    w.int(year)
  }
  const robe = data.robe.codes[row]
  if (robe !== 0) {
    w.bytes(ROBE)
    w.jsonContent(data.robe.values.bytes, data.robe.values.offsets[robe], data.robe.values.offsets[robe + 1])
    w.bytes(QUOTE)
  }
  if (hasFiliation(data, row)) {
    w.bytes(FILIATION)
    writeFiliation(w, data, row, "json")
    w.bytes(QUOTE)
  }
  const { pere, mere, pere_de_mere } = data.links
  if (hasLink(pere, row)) {
    w.bytes(LINK_KEYS[0])
    writeReference(w, data, pere, row)
  }
  if (hasLink(mere, row)) {
    w.bytes(LINK_KEYS[1])
    writeReference(w, data, mere, row)
  }
  if (hasLink(pere_de_mere, row)) {
    w.bytes(LINK_KEYS[2])
    writeReference(w, data, pere_de_mere, row)
  }
  const performances = performancesText(data, row)
  if (performances !== undefined) {
    w.bytes(PERFORMANCES)
    w.text(performances)
  }
  w.bytes(CLOSE)
}

const TRUE = utf8.encode("true")
const FALSE = utf8.encode("false")
const EMPTY_LINK = utf8.encode(",,,,")
const CRLF = utf8.encode("\r\n")

/** A link's four cells, each preceded by its comma: `_id, _nom, _race, _fiche_disponible`, all empty without a link. */
const writeLinkCells = (w: Writer, data: DatasetData, column: LinkColumn, row: number): void => {
  if (!hasLink(column, row)) return w.bytes(EMPTY_LINK)
  const parent = column.row[row]
  w.ascii(",")
  if (parent >= 0) w.id(data, parent)
  w.ascii(",")
  if (linkName(column, row) !== 0) {
    const start = w.length
    writeLinkNom(w, data, column, row, "raw")
    w.csvCellFrom(start)
  }
  w.ascii(",")
  if (column.race[row] !== 0) {
    const start = w.length
    writeLinkRace(w, data, column, row, "raw")
    w.csvCellFrom(start)
  }
  w.ascii(",")
  w.bytes(parent >= 0 ? TRUE : FALSE)
}

/** A cell of `source`'s bytes `start..end`, preceded by its comma. */
const cell = (w: Writer, source: Uint8Array, start: number, end: number): void => {
  w.ascii(",")
  const at = w.length
  w.raw(source, start, end)
  w.csvCellFrom(at)
}

/**
 * The record of `row` as a line of the export's CSV (issue 30: `id, nom, slug, url, race, sexe,
 * nombre_de_descendants, annee_naissance, robe, filiation_texte`, each link's four cells, the
 * performances' JSON), CRLF included; absent values empty.
 */
export const writeEquideCsv = (w: Writer, data: DatasetData, row: number): void => {
  w.id(data, row)
  cell(w, data.nom.bytes, data.nom.offsets[row], data.nom.offsets[row + 1])
  w.ascii(",")
  let start = w.length
  writeSlug(w, data, row, "raw")
  w.csvCellFrom(start)
  w.ascii(",")
  start = w.length
  writeUrl(w, data, row, "raw")
  w.csvCellFrom(start)
  const race = data.race.values
  const raceCode = data.race.codes[row]
  cell(w, race.bytes, race.offsets[raceCode], race.offsets[raceCode + 1])
  w.ascii(",")
  w.bytes(SEXE_TEXT[data.sexe.codes[row] - 1])
  w.ascii(",")
  w.int(postingsCount(data.progeny, row))
  w.ascii(",")
  const year = data.year[row]
  if (year !== NO_YEAR) w.int(year)
  const robe = data.robe.codes[row]
  if (robe !== 0) cell(w, data.robe.values.bytes, data.robe.values.offsets[robe], data.robe.values.offsets[robe + 1])
  else w.ascii(",")
  w.ascii(",")
  if (hasFiliation(data, row)) {
    start = w.length
    writeFiliation(w, data, row, "raw")
    w.csvCellFrom(start)
  }
  writeLinkCells(w, data, data.links.pere, row)
  writeLinkCells(w, data, data.links.mere, row)
  writeLinkCells(w, data, data.links.pere_de_mere, row)
  w.ascii(",")
  const performances = performancesText(data, row)
  if (performances !== undefined) {
    start = w.length
    w.text(performances)
    w.csvCellFrom(start)
  }
  w.bytes(CRLF)
}
