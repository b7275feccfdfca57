/**
 * Stage 2 of a Dataset build: takes stage 1's batches in file order (see `RecordEncoder`) and
 * does what needs every row: the id table (a duplicate id stops the load), parent links (resolved
 * at once when the parent came first, at the end otherwise), the columns, and in `finish` the
 * sorted indexes. It handles no record object and, apart from the final dictionaries, no string.
 */
import { breedSharesOf } from "../../genetics/breedShares.ts"
import { geneticColumns, inbreedingOf } from "../../genetics/columns.ts"
import { rowPedigree } from "../../genetics/ordered.ts"
import { diversityOf, heldDiversity } from "../../genetics/diversity.ts"
import { loadYear } from "../../genetics/reference.ts"
import { wholeExtractOf, wholeReference } from "../../genetics/wholeExtract.ts"
import { buildProgenyColumns } from "../progenyColumns.ts"
import { bitsOfLists } from "../bits.ts"
import { type Dimension, dictionarySize, type Postings, type StringArena } from "../columns.ts"
import { type Anomalies, type DatasetData, LINK_NAME_OF_ROW, type LinkColumn, NO_ROW, NO_YEAR, type Provenance } from "../DatasetData.ts"
import { SEXES } from "../../vocabulary.ts"
import { encodeId, ID_BYTES } from "../ids.ts"
import { tableOfDistinct } from "../idTable.ts"
import { LINK_KEYS } from "../SourceRecord.ts"
import { ArenaBuilder, Growable, narrow, temporary } from "./growable.ts"
import { byRank, cumulativeCodes, denseCodes, prefixSets, tokensByLength } from "./bitIndexes.ts"
import { GrowingIdTable } from "./GrowingIdTable.ts"
import { linkNameExceptions } from "../linkNames.ts"
import {
  dictionaryOf,
  groupByCode,
  identity,
  indexProgeny,
  invert,
  invertThrough,
  inverse,
  orderByFame,
  orderByYear,
  sortByKey,
  vocabularyOf
} from "./indexes.ts"
import type { BytesColumn, CodesColumn, EncoderSummary, RowBatch } from "./RowBatch.ts"

/** Why a load stops: a duplicate id, on this source line. */
export interface Rejection {
  readonly line: number
  readonly reason: string
}

const LINKS = LINK_KEYS.length
// ignoreBOM: a value starting with U+FEFF keeps it, as it does when a whole line is decoded.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** A link column while the load resolves it: every row's name code, kept as exceptions at the end (`linkNames.ts`). */
interface LoadedLink {
  readonly row: Int32Array
  readonly name: Uint32Array
  readonly race: Uint8Array
}

class LinkBuilder {
  readonly row = new Growable(Int32Array)
  readonly name = new Growable(Uint32Array)
  readonly race = new Growable(Uint8Array)

  finish(): LoadedLink {
    return { row: this.row.final(), name: this.name.final(), race: this.race.final() }
  }
}

const linkColumn = ({ name, race, row }: LoadedLink): LinkColumn => ({ row, nameExceptions: linkNameExceptions(row, name), race })

/** A growing arena: bytes and one offset per row (the first offset, 0, pushed at creation). */
class ArenaColumn {
  readonly bytes = new Growable(Uint8Array, 1 << 12)
  readonly offsets = new Growable(Uint32Array)

  constructor() {
    this.offsets.push(0)
  }

  /** Appends entries `from..to` of a batch column. */
  append(column: BytesColumn, from: number, to: number): void {
    const start = from === 0 ? 0 : column.ends[from - 1]
    const end = to === 0 ? 0 : column.ends[to - 1]
    const base = this.bytes.length - start
    this.bytes.reserve(end - start)
    const bytes = this.bytes.array
    for (let b = start; b < end; b++) bytes[this.bytes.length++] = column.bytes[b]
    this.offsets.reserve(to - from)
    const offsets = this.offsets.array
    for (let i = from; i < to; i++) offsets[this.offsets.length++] = base + column.ends[i]
  }

  finish(): StringArena {
    return { bytes: this.bytes.final(), offsets: this.offsets.final() }
  }
}

/** Per-row code lists (Postings with rows as keys). */
class ListColumn {
  readonly codes = new Growable(Uint32Array)
  readonly offsets = new Growable(Uint32Array)

  constructor() {
    this.offsets.push(0)
  }

  append(column: CodesColumn, rows: number): void {
    const base = this.codes.length
    this.codes.append(column.codes, rows === 0 ? 0 : column.ends[rows - 1])
    this.offsets.reserve(rows)
    const offsets = this.offsets.array
    for (let i = 0; i < rows; i++) offsets[this.offsets.length++] = base + column.ends[i]
  }

  finish(): Postings {
    return { offsets: this.offsets.final(), rows: this.codes.final() }
  }
}

const dimension = (values: ReadonlyArray<string>, codes: Uint8Array | Uint16Array | Uint32Array): Dimension => {
  const rows = groupByCode(codes, values.length)
  return { ...vocabularyOf(values), codes, rows, dense: denseCodes(rows, codes.length) }
}

export class DatasetAssembler {
  #size = 0
  readonly #ids = new Growable(Uint8Array, 1 << 16)
  readonly #table = new GrowingIdTable()
  readonly #firstLine = new Growable(Uint32Array)
  readonly #nom = new ArenaColumn()
  readonly #key = new Growable(Uint32Array)

  readonly #slugDeduced = new Growable(Uint8Array)
  readonly #slug = new ArenaColumn()
  readonly #filiationSpelled = new Growable(Uint8Array)
  readonly #filiation = new ArenaColumn()
  readonly #race = new Growable(Uint32Array)
  readonly #robe = new Growable(Uint32Array)
  readonly #statut = new Growable(Uint32Array)
  readonly #sexe = new Growable(Uint8Array)
  readonly #year = new Growable(Int32Array)
  readonly #performances = new ArenaColumn()
  readonly #disciplines = new ListColumn()
  readonly #indices = new ListColumn()

  readonly #links = [new LinkBuilder(), new LinkBuilder(), new LinkBuilder()] as const
  /** Code in `Links.names` of each link name stored (code 0 is no name). */
  readonly #linkNameCodes = new Map<string, number>([["", 0]])
  readonly #linkNames = new ArenaBuilder()
  /** Links to parents not seen yet: slot (row × 3 + link), parent id bytes, the link's name (a flag and UTF-8). */
  readonly #pendingSlots = new Growable(Uint32Array)
  readonly #pendingIds = new Growable(Uint8Array)
  readonly #pendingNamed = new Growable(Uint8Array)
  readonly #pendingNames = new ArenaColumn()

  constructor() {
    this.#linkNames.push("")
  }

  /**
   * Reserves room for about `rows` rows in all, as estimated by the reader (from the file's size
   * and the lines read so far): the columns then grow once instead of doubling, and end (nearly)
   * full, so `finish` keeps them without a copy (see `Growable.final`).
   */
  expect(rows: number): void {
    const size = this.#size
    if (rows <= size) return
    // One more than a row's share: the offsets columns hold rows + 1 values.
    const perRow = (growable: Growable<Uint8Array | Uint32Array | Int32Array>, width = 1) =>
      growable.reserveTotal(Math.ceil(width * rows) + 1)
    // Variable-length columns: their average so far per row, and a little margin.
    const likeSoFar = (growable: Growable<Uint8Array | Uint32Array | Int32Array>) =>
      size > 0 && perRow(growable, (1.02 * growable.length) / size)
    perRow(this.#ids, ID_BYTES)
    perRow(this.#firstLine)
    perRow(this.#key)
    perRow(this.#nom.offsets)
    likeSoFar(this.#nom.bytes)
    for (const column of [this.#slugDeduced, this.#filiationSpelled, this.#race, this.#robe, this.#statut, this.#sexe, this.#year]) {
      perRow(column)
    }
    for (const arena of [this.#slug, this.#filiation, this.#performances]) {
      perRow(arena.offsets)
      likeSoFar(arena.bytes)
    }
    for (const list of [this.#disciplines, this.#indices]) {
      perRow(list.offsets)
      likeSoFar(list.codes)
    }
    for (const link of this.#links) {
      perRow(link.row)
      perRow(link.name)
      perRow(link.race)
    }
    this.#table.expect(rows)
  }

  /** Takes the batch's rows; stops at a duplicate id (the Dataset is then unusable). */
  add(batch: RowBatch): Rejection | undefined {
    const n = batch.size
    const ids = this.#ids
    for (let i = 0; i < n; i++) {
      const row = this.#size
      const at = row * ID_BYTES
      ids.reserve(ID_BYTES)
      for (let b = 0; b < ID_BYTES; b++) ids.array[at + b] = batch.ids[i * ID_BYTES + b]
      const seen = this.#table.insert(ids.array, row)
      if (seen >= 0) {
        return {
          line: batch.lines[i],
          reason: `duplicate id ${encodeId(ids.array, at)} (first seen on line ${this.#firstLine.array[seen]})`
        }
      }
      ids.length += ID_BYTES
      this.#size++
      this.#firstLine.push(batch.lines[i])
      // The row's own name first: a link may point to the row itself.
      this.#nom.append(batch.nom, i, i + 1)
      for (let k = 0; k < LINKS; k++) this.#addLink(batch, i * LINKS + k, row * LINKS + k)
    }
    this.#key.append(batch.key, n)
    this.#slugDeduced.append(batch.slugDeduced, n)
    this.#slug.append(batch.slug, 0, n)
    this.#filiationSpelled.append(batch.filiationSpelled, n)
    this.#filiation.append(batch.filiation, 0, n)
    this.#race.append(batch.race, n)
    this.#robe.append(batch.robe, n)
    this.#statut.append(batch.statut, n)
    this.#sexe.append(batch.sexe, n)
    this.#year.append(batch.year, n)
    this.#performances.append(batch.performances, 0, n)
    this.#disciplines.append(batch.disciplines, n)
    this.#indices.append(batch.indices, n)
    return undefined
  }

  /** Link `j` of the batch (`slot` in the Dataset): resolved now when its parent came first. */
  #addLink(batch: RowBatch, j: number, slot: number): void {
    const column = this.#links[slot % LINKS]
    column.race.push(batch.linkRace[j])
    const named = batch.linkNamed[j] === 1
    const names = batch.linkNames
    const nameStart = j === 0 ? 0 : names.ends[j - 1]
    const nameEnd = names.ends[j]
    if (batch.linkReadable[j] === 0) {
      column.row.push(NO_ROW)
      column.name.push(named ? this.#linkNameCode(names.bytes, nameStart, nameEnd) : 0)
      return
    }
    const parent = this.#table.find(batch.linkIds, j * ID_BYTES)
    column.row.push(parent)
    if (parent >= 0) {
      column.name.push(this.#nameOfLink(named, names.bytes, nameStart, nameEnd, parent))
      return
    }
    column.name.push(0)
    this.#pendingSlots.push(slot)
    const ids = this.#pendingIds
    ids.reserve(ID_BYTES)
    for (let b = 0; b < ID_BYTES; b++) ids.array[ids.length + b] = batch.linkIds[j * ID_BYTES + b]
    ids.length += ID_BYTES
    this.#pendingNamed.push(named ? 1 : 0)
    this.#pendingNames.append(names, j, j + 1)
  }

  /**
   * A resolved link's name (`bytes[start..end]` when `named`): most often its parent's own, then
   * not stored again. Comparing the UTF-8 is comparing the names as served.
   */
  #nameOfLink(named: boolean, bytes: Uint8Array, start: number, end: number, parent: number): number {
    if (!named) return 0
    const nom = this.#nom.bytes.array
    const from = this.#nom.offsets.array[parent]
    if (this.#nom.offsets.array[parent + 1] - from === end - start) {
      let same = true
      for (let b = 0; b < end - start; b++) {
        if (nom[from + b] !== bytes[start + b]) {
          same = false
          break
        }
      }
      if (same) return LINK_NAME_OF_ROW
    }
    return this.#linkNameCode(bytes, start, end)
  }

  /** The code in `Links.names` of the name `bytes[start..end]` (0, served as no name, for `""`). */
  #linkNameCode(bytes: Uint8Array, start: number, end: number): number {
    if (start === end) return 0
    const name = decoder.decode(bytes.subarray(start, end))
    let code = this.#linkNameCodes.get(name)
    if (code === undefined) {
      code = this.#linkNameCodes.size
      this.#linkNames.push(name)
      this.#linkNameCodes.set(name, code)
    }
    return code
  }

  /** Resolves the links to parents listed later in the file; answers the count of distinct dangling ids. */
  #resolvePending(columns: ReadonlyArray<LoadedLink>): number {
    const pendingIds = this.#pendingIds.array
    const names = this.#pendingNames.bytes.array
    const ends = this.#pendingNames.offsets.array
    const dangling = new Set<string>()
    for (let i = 0; i < this.#pendingSlots.length; i++) {
      const slot = this.#pendingSlots.array[i]
      const column = columns[slot % LINKS]
      const row = Math.floor(slot / LINKS)
      const parent = this.#table.find(pendingIds, i * ID_BYTES)
      const named = this.#pendingNamed.array[i] === 1
      if (parent >= 0) {
        column.row[row] = parent
        column.name[row] = this.#nameOfLink(named, names, ends[i], ends[i + 1], parent)
      } else {
        column.name[row] = named ? this.#linkNameCode(names, ends[i], ends[i + 1]) : 0
        dangling.add(encodeId(pendingIds, i * ID_BYTES))
      }
    }
    return dangling.size
  }

  /**
   * The Dataset. `onGenetics` is told when the whole-pedigree computation (F and generations of
   * every row, the load's longest step after reading) starts, so that a load log shows it as a phase.
   */
  finish(summary: EncoderSummary, provenance: Provenance, onGenetics?: () => void): DatasetData {
    const size = this.#size
    const ids = this.#ids.final()
    const idTable = tableOfDistinct(ids, size)
    const loaded = this.#links.map((link) => link.finish())
    const parentsPendants = this.#resolvePending(loaded)
    const [pere, mere, pereDeMere] = loaded.map(linkColumn)

    const names = summary.names
    const keyOfRow = this.#key.array.subarray(0, size)
    const nameKey = new Uint32Array(size)
    for (let row = 0; row < size; row++) nameKey[row] = names.keyRank[keyOfRow[row]]
    const byName = sortByKey(identity(size), nameKey, names.keyRank.length)
    const nameRank = inverse(byName)

    const year = this.#year.final()
    const annee = yearDimension(year)
    const progeny = indexProgeny(pere.row, mere.row, annee.codes, dictionarySize(annee.values), byName, nameRank)
    const fame = orderByFame(byName, progeny)

    const rowDisciplines = this.#disciplines.finish()
    const rowIndices = this.#indices.finish()
    const performances = this.#performances.finish()
    const withPerformances: Array<number> = []
    for (let row = 0; row < size; row++) {
      if (performances.offsets[row + 1] > performances.offsets[row]) withPerformances.push(row)
    }
    const keyTokens = byRank(names.keyTokens, names.keyRank)
    const tokenRows = invertThrough(nameKey, keyTokens, names.tokens.length, fame)

    const anomalies: Anomalies = {
      annee_naissance_absente: summary.anneeAbsente,
      annee_naissance_min: summary.anneeMin,
      annee_naissance_max: summary.anneeMax,
      identifiants_illisibles: summary.illisibles,
      parents_pendants: parentsPendants,
      robe_absente: summary.robeAbsente,
      sans_filiation: summary.sansFiliation,
      slugs_non_deductibles: summary.slugsNonDeductibles,
      textes_invalides: summary.textesInvalides,
      types_invalides: summary.typesInvalides
    }

    const prefixes = prefixSets(names.tokens, tokenRows, size)
    const byYear = orderByYear(annee.codes, dictionarySize(annee.values))
    const withStrings = { ...performances, strings: summary.performanceStrings }
    const discipline = { ...vocabularyOf(summary.discipline), rows: invert(rowDisciplines, summary.discipline.length) }
    const indice = { ...vocabularyOf(summary.indice), rows: invert(rowIndices, summary.indice.length) }
    const sexe = dimension(["", ...SEXES], this.#sexe.final())
    const progenyColumns = buildProgenyColumns(
      { size, ids, sexe: sexe.codes, performances: withStrings, indice, discipline, annee, pere: pere.row, mere: mere.row, progeny, byName, nameRank, nameKey },
      rowIndices
    )
    onGenetics?.()
    const genetics = geneticColumns({ sire: pere.row, dam: mere.row })
    const race = dimension(summary.race, narrow(this.#race.final(), summary.race.length))
    const pedigree = rowPedigree({ sire: pere.row, dam: mere.row }, genetics)
    const breedShares = breedSharesOf({
      race,
      year,
      noYear: NO_YEAR,
      loadYear: loadYear(provenance.ingestedAt),
      pedigree,
      inbreeding: (row) => inbreedingOf(genetics, row)
    })
    const wholeExtract = wholeExtractOf(year, NO_YEAR, loadYear(provenance.ingestedAt), genetics)
    const whole = wholeReference(wholeExtract, NO_YEAR)
    const wholeDiversity = heldDiversity(whole === null ? null : diversityOf(pedigree, year, NO_YEAR, whole.rows))

    return {
      size,
      provenance,
      anomalies,
      ids,
      idTable,
      nom: this.#nom.finish(),
      slug: this.#slug.finish(),
      slugDeduced: this.#slugDeduced.final(),
      filiation: this.#filiation.finish(),
      filiationSpelled: this.#filiationSpelled.final(),
      performances: withStrings,
      race,
      robe: dimension(summary.robe, narrow(this.#robe.final(), summary.robe.length)),
      sexe,
      statut: dimension(summary.statut, narrow(this.#statut.final(), summary.statut.length)),
      annee,
      year,
      discipline,
      indice,
      rowDisciplines,
      withPerformances: Uint32Array.from(withPerformances),
      withPerformancesBits: bitsOfLists(size, [withPerformances]),
      yearsUpTo: cumulativeCodes(annee.codes, dictionarySize(annee.values), size),
      links: {
        pere,
        mere,
        pere_de_mere: pereDeMere,
        names: this.#linkNames.finish(),
        races: dictionaryOf(summary.linkRaces),
        raceCounts: summary.linkRaceCounts
      },
      progeny,
      byName,
      nameRank,
      nameKey,
      byYear,
      names: {
        tokens: dictionaryOf(names.tokens),
        lengths: Uint32Array.from(names.tokens, (token) => token.length),
        rows: tokenRows,
        byLength: tokensByLength(names.tokens),
        keyTokens,
        prefixSets: prefixes
      },
      genetics,
      breedShares,
      wholeDiversity,
      wholeExtract,
      progenyColumns
    }
  }
}

const YEAR_TABLE_SPAN = 1 << 16

/** Birth years as a dimension: values are the distinct years in chronological order, as text. */
const yearDimension = (year: Int32Array): Dimension => {
  let min = Infinity
  let max = -Infinity
  for (let row = 0; row < year.length; row++) {
    const y = year[row]
    if (y === NO_YEAR) continue
    if (y < min) min = y
    if (y > max) max = y
  }
  const span = max >= min ? max - min + 1 : 0
  // Narrowed by `dimension` below: this one is temporary.
  const codes = temporary(Uint32Array, year.length)
  const values = [""]
  if (span <= YEAR_TABLE_SPAN) {
    // Years span two millennia at most, aberrant ones included: a table indexed by year.
    const codeOf = new Uint32Array(span)
    for (let row = 0; row < year.length; row++) if (year[row] !== NO_YEAR) codeOf[year[row] - min] = 1
    for (let i = 0; i < span; i++) {
      if (codeOf[i] !== 0) {
        codeOf[i] = values.length
        values.push(String(min + i))
      }
    }
    for (let row = 0; row < year.length; row++) codes[row] = year[row] === NO_YEAR ? 0 : codeOf[year[row] - min]
  } else {
    const distinct = [...new Set(year)].filter((y) => y !== NO_YEAR).sort((a, b) => a - b)
    const codeOf = new Map(distinct.map((y, i) => [y, i + 1]))
    for (const y of distinct) values.push(String(y))
    for (let row = 0; row < year.length; row++) codes[row] = year[row] === NO_YEAR ? 0 : (codeOf.get(year[row]) ?? 0)
  }
  return dimension(values, narrow(codes, values.length))
}
