import type { Dimension, Postings } from "../columns.ts"
import {
  type Anomalies,
  type DatasetData,
  LINK_NAME_OF_ROW,
  type LinkColumn,
  NO_ROW,
  NO_YEAR,
  type Provenance,
  SEXES
} from "../DatasetData.ts"
import { decodeId, encodeId, ID_BYTES } from "../ids.ts"
import { emptyTable, probe, rebuildTable } from "../idTable.ts"
import { LINK_KEYS, type SourceRecord } from "../SourceRecord.ts"
import { isSlugOf } from "../../text/fold.ts"
import { ArenaBuilder, Growable, Interner } from "./growable.ts"
import { groupByCode, indexNames, indexProgeny, invert, orderByFame, orderByYear } from "./indexes.ts"

/**
 * Where a parent id could not be resolved yet: the link slot (row × 3 + link), the id bytes and
 * the name the link carries, to be compared with the parent's own once it is found.
 */
interface PendingLinks {
  readonly slots: Growable<Uint32Array>
  readonly ids: Growable<Uint8Array>
  readonly names: Array<string | undefined>
}

const SEXE_CODE = new Map<string, number>(SEXES.map((sexe, i) => [sexe, i + 1]))
const INDETER = SEXES.length

class LinkBuilder {
  readonly row = new Growable(Int32Array)
  readonly name = new Growable(Uint32Array)
  readonly race = new Growable(Uint8Array)

  finish(): LinkColumn {
    return { row: this.row.trimmed(), name: this.name.trimmed(), race: this.race.trimmed() }
  }
}

const dimension = (values: ReadonlyArray<string>, codes: Uint8Array | Uint16Array | Uint32Array): Dimension => ({
  values,
  codes,
  rows: groupByCode(codes, values.length)
})

/** Narrowest unsigned array able to hold every code of an interner. */
const narrow = (codes: Uint32Array, count: number): Uint8Array | Uint16Array | Uint32Array =>
  count <= 0x100 ? Uint8Array.from(codes) : count <= 0x10000 ? Uint16Array.from(codes) : codes

/**
 * Accumulates records one at a time (the readers call `add` per line) and builds the columnar
 * Dataset with its indexes in `finish`. Every anomaly of design 1.3 is counted here, once.
 */
export class DatasetBuilder {
  #size = 0
  #ids = new Growable(Uint8Array, 1 << 16)
  #table = emptyTable(1024)
  readonly #firstLine = new Growable(Uint32Array)
  readonly #scratch = new Uint8Array(ID_BYTES)

  readonly #names: Array<string> = []
  readonly #nom = new ArenaBuilder()
  readonly #slug = new ArenaBuilder()
  readonly #slugDeduced = new Growable(Uint8Array)
  readonly #filiation = new ArenaBuilder()
  readonly #performances = new ArenaBuilder()

  readonly #race = new Interner()
  readonly #raceCodes = new Growable(Uint32Array)
  readonly #robe = new Interner()
  readonly #robeCodes = new Growable(Uint32Array)
  readonly #sexeCodes = new Growable(Uint8Array)
  readonly #statut = new Interner()
  readonly #statutCodes = new Growable(Uint32Array)
  readonly #year = new Growable(Int32Array)

  readonly #discipline = new Interner()
  readonly #rowDisciplines = new Growable(Uint32Array)
  readonly #rowDisciplineOffsets = new Growable(Uint32Array)
  readonly #indice = new Interner()
  readonly #rowIndices = new Growable(Uint32Array)
  readonly #rowIndexOffsets = new Growable(Uint32Array)

  readonly #links = { pere: new LinkBuilder(), mere: new LinkBuilder(), pere_de_mere: new LinkBuilder() }
  readonly #linkNames = new Interner()
  readonly #linkRaces = new Interner()
  readonly #linkRaceCounts: Array<number> = [0]
  readonly #pending: PendingLinks = { slots: new Growable(Uint32Array), ids: new Growable(Uint8Array), names: [] }

  #illisibles = 0
  #robeAbsente = 0
  #anneeAbsente = 0
  #anneeMin: number | null = null
  #anneeMax: number | null = null
  #sansFiliation = 0
  #slugsNonDeductibles = 0

  constructor() {
    this.#rowDisciplineOffsets.push(0)
    this.#rowIndexOffsets.push(0)
  }

  /** Adds one source line; answers a reason when the load must stop (a duplicate id). */
  add(record: SourceRecord, line: number): string | undefined {
    if (record.id === undefined || !decodeId(record.id, this.#scratch, 0)) {
      this.#illisibles++
      return undefined
    }
    const row = this.#size
    this.#ids.reserve(ID_BYTES)
    this.#ids.array.set(this.#scratch, row * ID_BYTES)
    const slot = probe(this.#table, this.#ids.array, this.#scratch, 0)
    if (this.#table[slot] >= 0) {
      return `duplicate id ${record.id} (first seen on line ${this.#firstLine.array[this.#table[slot]]})`
    }
    this.#ids.length += ID_BYTES
    this.#table[slot] = row
    this.#firstLine.push(line)
    this.#size++
    if (this.#size * 2 > this.#table.length) this.#table = rebuildTable(this.#ids.array, this.#size, this.#size * 2)

    const nom = record.nom ?? ""
    this.#names.push(nom)
    this.#nom.push(nom)
    this.#addSlug(record.slug, nom)
    this.#filiation.push(record.filiation_texte ?? "")

    this.#raceCodes.push(this.#race.code(record.race))
    if (record.robe === undefined) this.#robeAbsente++
    this.#robeCodes.push(this.#robe.code(record.robe))
    this.#sexeCodes.push(record.sexe === undefined ? INDETER : (SEXE_CODE.get(record.sexe) ?? INDETER))
    this.#statutCodes.push(this.#statut.code(record.statut_reproducteur))
    this.#addYear(record.annee_naissance)
    this.#addPerformances(record)

    let filiation = false
    for (let k = 0; k < LINK_KEYS.length; k++) {
      if (this.#addLink(record, row, k)) filiation = true
    }
    if (!filiation) this.#sansFiliation++
    return undefined
  }

  #addSlug(slug: string | undefined, nom: string): void {
    const deduced = slug !== undefined && isSlugOf(slug, nom)
    if (slug !== undefined && !deduced) this.#slugsNonDeductibles++
    this.#slugDeduced.push(deduced ? 1 : 0)
    this.#slug.push(deduced ? "" : (slug ?? ""))
  }

  #addYear(year: number | undefined): void {
    if (year === undefined) {
      this.#anneeAbsente++
      this.#year.push(NO_YEAR)
      return
    }
    this.#year.push(year)
    if (this.#anneeMin === null || year < this.#anneeMin) this.#anneeMin = year
    if (this.#anneeMax === null || year > this.#anneeMax) this.#anneeMax = year
  }

  #addPerformances(record: SourceRecord): void {
    const performances = record.performances
    if (performances !== undefined && performances.length > 0) {
      this.#performances.push(JSON.stringify(performances))
      const disciplineStart = this.#rowDisciplines.length
      const indexStart = this.#rowIndices.length
      for (const performance of performances) {
        if (performance.discipline !== undefined) {
          pushDistinct(this.#rowDisciplines, disciplineStart, this.#discipline.code(performance.discipline))
        }
        for (const index of performance.indices ?? []) {
          if (index.code !== undefined) pushDistinct(this.#rowIndices, indexStart, this.#indice.code(index.code))
        }
      }
    } else {
      this.#performances.push("")
    }
    this.#rowDisciplineOffsets.push(this.#rowDisciplines.length)
    this.#rowIndexOffsets.push(this.#rowIndices.length)
  }

  /** Records link `k` of `row`; true when it carries a readable id (the record has a filiation). */
  #addLink(record: SourceRecord, row: number, k: number): boolean {
    const key = LINK_KEYS[k]
    const link = record[key]
    const column = this.#links[key]
    const race = this.#linkRaces.code(link?.race)
    column.race.push(race)
    if (race > 0) this.#linkRaceCounts[race] = (this.#linkRaceCounts[race] ?? 0) + 1
    if (link?.id === undefined || !decodeId(link.id, this.#scratch, 0)) {
      column.row.push(NO_ROW)
      column.name.push(this.#linkNames.code(link?.nom))
      return false
    }
    const parent = this.#table[probe(this.#table, this.#ids.array, this.#scratch, 0)]
    column.row.push(parent)
    if (parent >= 0) {
      column.name.push(link.nom === this.#names[parent] ? LINK_NAME_OF_ROW : this.#linkNames.code(link.nom))
    } else {
      column.name.push(0)
      this.#pending.slots.push(row * LINK_KEYS.length + k)
      this.#pending.ids.reserve(ID_BYTES)
      this.#pending.ids.array.set(this.#scratch, this.#pending.ids.length)
      this.#pending.ids.length += ID_BYTES
      this.#pending.names.push(link.nom)
    }
    return true
  }

  /**
   * Resolves links to parents listed later in the file; answers the count of distinct dangling
   * ids. A dangling link keeps the name it carries.
   */
  #resolvePending(table: Int32Array, ids: Uint8Array, columns: ReadonlyArray<LinkColumn>): number {
    const pending = this.#pending
    const dangling = new Set<string>()
    for (let i = 0; i < pending.slots.length; i++) {
      const slot = pending.slots.array[i]
      const column = columns[slot % columns.length]
      const row = Math.floor(slot / columns.length)
      const parent = table[probe(table, ids, pending.ids.array, i * ID_BYTES)]
      const name = pending.names[i]
      if (parent >= 0) {
        column.row[row] = parent
        column.name[row] = name === this.#names[parent] ? LINK_NAME_OF_ROW : this.#linkNames.code(name)
      } else {
        column.name[row] = this.#linkNames.code(name)
        dangling.add(encodeId(pending.ids.array, i * ID_BYTES))
      }
    }
    return dangling.size
  }

  finish(provenance: Provenance): DatasetData {
    const size = this.#size
    const ids = this.#ids.trimmed()
    const idTable = rebuildTable(ids, size, size)
    const links = { pere: this.#links.pere.finish(), mere: this.#links.mere.finish(), pere_de_mere: this.#links.pere_de_mere.finish() }
    const parentsPendants = this.#resolvePending(idTable, ids, [links.pere, links.mere, links.pere_de_mere])

    const year = this.#year.trimmed()
    const annee = yearDimension(year)
    const names = indexNames(this.#names)
    const progeny = indexProgeny(links.pere.row, links.mere.row, year, names.nameRank)
    const fame = orderByFame(names.byName, progeny)

    const rowDisciplines: Postings = { offsets: this.#rowDisciplineOffsets.trimmed(), rows: this.#rowDisciplines.trimmed() }
    const rowIndices: Postings = { offsets: this.#rowIndexOffsets.trimmed(), rows: this.#rowIndices.trimmed() }
    const performances = this.#performances.finish()
    const withPerformances: Array<number> = []
    for (let row = 0; row < size; row++) {
      if (performances.offsets[row + 1] > performances.offsets[row]) withPerformances.push(row)
    }

    const anomalies: Anomalies = {
      annee_naissance_absente: this.#anneeAbsente,
      annee_naissance_min: this.#anneeMin,
      annee_naissance_max: this.#anneeMax,
      identifiants_illisibles: this.#illisibles,
      parents_pendants: parentsPendants,
      robe_absente: this.#robeAbsente,
      sans_filiation: this.#sansFiliation,
      slugs_non_deductibles: this.#slugsNonDeductibles
    }

    return {
      size,
      provenance,
      anomalies,
      ids,
      idTable,
      nom: this.#nom.finish(),
      slug: this.#slug.finish(),
      slugDeduced: this.#slugDeduced.trimmed(),
      filiation: this.#filiation.finish(),
      performances,
      race: dimension(this.#race.values, narrow(this.#raceCodes.trimmed(), this.#race.values.length)),
      robe: dimension(this.#robe.values, narrow(this.#robeCodes.trimmed(), this.#robe.values.length)),
      sexe: dimension(["", ...SEXES], this.#sexeCodes.trimmed()),
      statut: dimension(this.#statut.values, narrow(this.#statutCodes.trimmed(), this.#statut.values.length)),
      annee,
      year,
      discipline: { values: this.#discipline.values, rows: invert(rowDisciplines, this.#discipline.values.length) },
      indice: { values: this.#indice.values, rows: invert(rowIndices, this.#indice.values.length) },
      rowDisciplines,
      withPerformances: Uint32Array.from(withPerformances),
      links: {
        ...links,
        names: arenaOf(this.#linkNames.values),
        races: this.#linkRaces.values,
        raceCounts: Uint32Array.from(this.#linkRaces.values, (_, code) => this.#linkRaceCounts[code] ?? 0)
      },
      progeny,
      byName: names.byName,
      nameRank: names.nameRank,
      byYear: orderByYear(annee.codes, annee.values.length),
      names: { tokens: names.tokens, rows: invert(names.rowTokens, names.tokens.length, fame) }
    }
  }
}

const pushDistinct = (list: Growable<Uint32Array>, start: number, code: number): void => {
  for (let i = start; i < list.length; i++) if (list.array[i] === code) return
  list.push(code)
}

/** Birth years as a dimension: values are the distinct years in chronological order, as text. */
const yearDimension = (year: Int32Array): Dimension => {
  const distinct = [...new Set(year)].filter((y) => y !== NO_YEAR).sort((a, b) => a - b)
  const codeOf = new Map(distinct.map((y, i) => [y, i + 1]))
  const codes = new Uint32Array(year.length)
  for (let row = 0; row < year.length; row++) codes[row] = year[row] === NO_YEAR ? 0 : (codeOf.get(year[row]) ?? 0)
  return dimension(["", ...distinct.map(String)], codes)
}

const arenaOf = (values: ReadonlyArray<string>) => {
  const arena = new ArenaBuilder()
  for (const value of values) arena.push(value)
  return arena.finish()
}
