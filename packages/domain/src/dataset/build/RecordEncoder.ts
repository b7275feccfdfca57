/**
 * Stage 1 of a Dataset build: each record, in file order, reduced to numbers and bytes (see
 * `RowBatch`). Everything that needs only the record and the dictionaries happens here: id
 * decoding, interning (categorical values, names, performance strings), name folding, slug and
 * filiation checks, performance encoding, and the anomalies counted per record. What needs every
 * row (the id table, parent links, sorted indexes) is stage 2's, in `DatasetAssembler`.
 *
 * The stage runs wherever the records are parsed: on the loader's parsing thread for a large JSON
 * Lines file, in line for anything else. It never sees another thread's state, so it owns every
 * dictionary and hands them over at the end, in `summary`.
 */
import { NO_YEAR } from "../DatasetData.ts"
import { SEXES } from "../../vocabulary.ts"
import { isSpelledFiliation, isSpelledFiliationSpans } from "../filiation.ts"
import { decodeId, decodeIdBytes, ID_BYTES } from "../ids.ts"
import { PerformanceEncoder } from "../performances.ts"
import { LINK_KEYS, type SourcePerformance, type SourceRecord } from "../SourceRecord.ts"
import { isSlugOf, isSlugOfUtf8 } from "../../text/fold.ts"
import { InternerCache, sameBytes, textOfBytes } from "./bytes.ts"
import { Growable, Interner } from "./growable.ts"
import { type RecordSpans, SPAN_FILIATION, SPAN_ID, SPAN_NOM, SPAN_RACE, SPAN_ROBE, SPAN_SEXE, SPAN_SLUG, SPAN_STATUT, spanLinkId, spanLinkNom, spanLinkRace } from "./RecordSpans.ts"
import { NameIndexer } from "./names.ts"
import type { EncoderSummary, RowBatch } from "./RowBatch.ts"

const SEXE_CODE = new Map<string, number>(SEXES.map((sexe, i) => [sexe, i + 1]))
const INDETER = SEXES.length

const encoder = new TextEncoder()

const pushText = (bytes: Growable<Uint8Array>, text: string): void => {
  if (text.length === 0) return
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  bytes.reserve(text.length * 3)
  bytes.length += encoder.encodeInto(text, bytes.array.subarray(bytes.length)).written
}

const pushBytes = (out: Growable<Uint8Array>, bytes: Uint8Array, start: number, end: number): void => {
  out.reserve(end - start)
  const array = out.array
  let at = out.length
  for (let i = start; i < end; i++) array[at++] = bytes[i]
  out.length = at
}

const SEXE_BYTES = SEXES.map((sexe) => Uint8Array.from(sexe, (c) => c.charCodeAt(0)))

/** The sex code of the UTF-8 value `bytes[start..end]` (Indeter for any other value). */
const sexeOfBytes = (bytes: Uint8Array, start: number, end: number): number => {
  for (let code = 0; code < SEXE_BYTES.length; code++) {
    const sexe = SEXE_BYTES[code]
    if (sexe.length === end - start && sameBytes(bytes, start, end, sexe, 0)) return code + 1
  }
  return INDETER
}

const pushDistinct = (list: Growable<Uint32Array>, start: number, code: number): void => {
  for (let i = start; i < list.length; i++) if (list.array[i] === code) return
  list.push(code)
}

export class RecordEncoder {
  #illisibles = 0
  #robeAbsente = 0
  #anneeAbsente = 0
  #anneeMin: number | null = null
  #anneeMax: number | null = null
  #sansFiliation = 0
  #slugsNonDeductibles = 0
  #textesInvalides = 0
  #typesInvalides = 0

  readonly #names = new NameIndexer()
  readonly #race = new Interner()
  readonly #robe = new Interner()
  readonly #statut = new Interner()
  readonly #discipline = new Interner()
  readonly #indice = new Interner()
  readonly #linkRaces = new Interner()
  readonly #linkRaceCounts: Array<number> = [0]
  readonly #performanceEncoder = new PerformanceEncoder()
  // Byte-keyed caches in front of the interners, for `encodeSpans`.
  readonly #raceCache = new InternerCache(this.#race)
  readonly #robeCache = new InternerCache(this.#robe)
  readonly #statutCache = new InternerCache(this.#statut)
  readonly #linkRaceCache = new InternerCache(this.#linkRaces)

  // The batch being filled.
  #size = 0
  readonly #lines = new Growable(Uint32Array)
  readonly #ids = new Growable(Uint8Array, 1 << 14)
  readonly #nomBytes = new Growable(Uint8Array, 1 << 14)
  readonly #nomEnds = new Growable(Uint32Array)
  readonly #key = new Growable(Uint32Array)
  readonly #slugDeduced = new Growable(Uint8Array)
  readonly #slugBytes = new Growable(Uint8Array)
  readonly #slugEnds = new Growable(Uint32Array)
  readonly #filiationSpelled = new Growable(Uint8Array)
  readonly #filiationBytes = new Growable(Uint8Array)
  readonly #filiationEnds = new Growable(Uint32Array)
  readonly #raceCodes = new Growable(Uint32Array)
  readonly #robeCodes = new Growable(Uint32Array)
  readonly #statutCodes = new Growable(Uint32Array)
  readonly #sexeCodes = new Growable(Uint8Array)
  readonly #year = new Growable(Int32Array)
  readonly #performanceBytes = new Growable(Uint8Array, 1 << 14)
  readonly #performanceEnds = new Growable(Uint32Array)
  readonly #disciplineCodes = new Growable(Uint32Array)
  readonly #disciplineEnds = new Growable(Uint32Array)
  readonly #indexCodes = new Growable(Uint32Array)
  readonly #indexEnds = new Growable(Uint32Array)
  readonly #linkRace = new Growable(Uint8Array)
  readonly #linkReadable = new Growable(Uint8Array)
  readonly #linkIds = new Growable(Uint8Array, 1 << 14)
  readonly #linkNamed = new Growable(Uint8Array)
  readonly #linkNameBytes = new Growable(Uint8Array, 1 << 14)
  readonly #linkNameEnds = new Growable(Uint32Array)

  /** Rows in the batch being filled. */
  get size(): number {
    return this.#size
  }

  /** Adds one record to the batch; false when it is skipped (its own id is unreadable: counted). */
  encode(record: SourceRecord, line: number): boolean {
    const ids = this.#ids
    ids.reserve(ID_BYTES)
    if (record.id === undefined || !decodeId(record.id, ids.array, ids.length)) {
      this.#illisibles++
      return false
    }
    ids.length += ID_BYTES
    this.#size++
    this.#lines.push(line)

    const nom = record.nom ?? ""
    pushText(this.#nomBytes, nom)
    this.#nomEnds.push(this.#nomBytes.length)
    this.#key.push(this.#names.key(nom))
    this.#addSlug(record.slug, nom)
    if (isSpelledFiliation(record)) {
      this.#filiationSpelled.push(1)
    } else {
      this.#filiationSpelled.push(0)
      if (record.filiation_texte !== undefined) pushText(this.#filiationBytes, record.filiation_texte)
    }
    this.#filiationEnds.push(this.#filiationBytes.length)

    if (record.rejected !== undefined) {
      this.#textesInvalides += record.rejected.invalidText
      this.#typesInvalides += record.rejected.wrongType
    }
    this.#raceCodes.push(this.#race.code(record.race))
    if (record.robe === undefined) this.#robeAbsente++
    this.#robeCodes.push(this.#robe.code(record.robe))
    this.#sexeCodes.push(record.sexe === undefined ? INDETER : (SEXE_CODE.get(record.sexe) ?? INDETER))
    this.#statutCodes.push(this.#statut.code(record.statut_reproducteur))
    this.#addYear(record.annee_naissance)
    this.#addPerformances(record.performances)

    let filiation = false
    for (let k = 0; k < LINK_KEYS.length; k++) {
      if (this.#addLink(record, k)) filiation = true
    }
    if (!filiation) this.#sansFiliation++
    return true
  }

  /**
   * `encode` of a record given as spans of UTF-8 bytes (see `RecordSpans`): the same batch rows,
   * dictionaries and counts, with the values read in place.
   */
  encodeSpans(record: RecordSpans, line: number): boolean {
    const bytes = record.bytes
    const ids = this.#ids
    ids.reserve(ID_BYTES)
    if (!record.has(SPAN_ID) || !decodeIdBytes(bytes, record.start(SPAN_ID), record.end(SPAN_ID), ids.array, ids.length)) {
      this.#illisibles++
      return false
    }
    ids.length += ID_BYTES
    this.#size++
    this.#lines.push(line)

    const nomStart = record.has(SPAN_NOM) ? record.start(SPAN_NOM) : 0
    const nomEnd = record.has(SPAN_NOM) ? record.end(SPAN_NOM) : 0
    pushBytes(this.#nomBytes, bytes, nomStart, nomEnd)
    this.#nomEnds.push(this.#nomBytes.length)
    this.#key.push(this.#names.keyOfBytes(bytes, nomStart, nomEnd))
    this.#addSlugSpans(record, nomStart, nomEnd)
    if (isSpelledFiliationSpans(record)) {
      this.#filiationSpelled.push(1)
    } else {
      this.#filiationSpelled.push(0)
      if (record.has(SPAN_FILIATION)) pushBytes(this.#filiationBytes, bytes, record.start(SPAN_FILIATION), record.end(SPAN_FILIATION))
    }
    this.#filiationEnds.push(this.#filiationBytes.length)

    this.#raceCodes.push(this.#spanCode(this.#raceCache, record, SPAN_RACE))
    if (!record.has(SPAN_ROBE)) this.#robeAbsente++
    this.#robeCodes.push(this.#spanCode(this.#robeCache, record, SPAN_ROBE))
    this.#sexeCodes.push(record.has(SPAN_SEXE) ? sexeOfBytes(bytes, record.start(SPAN_SEXE), record.end(SPAN_SEXE)) : INDETER)
    this.#statutCodes.push(this.#spanCode(this.#statutCache, record, SPAN_STATUT))
    this.#addYear(record.annee)
    this.#addPerformances(record.performances)

    let filiation = false
    for (let k = 0; k < LINK_KEYS.length; k++) {
      const race = this.#spanCode(this.#linkRaceCache, record, spanLinkRace(k))
      this.#linkRace.push(race)
      if (race > 0) this.#linkRaceCounts[race] = (this.#linkRaceCounts[race] ?? 0) + 1
      const linkIds = this.#linkIds
      linkIds.reserve(ID_BYTES)
      const id = spanLinkId(k)
      const readable = record.has(id) && decodeIdBytes(bytes, record.start(id), record.end(id), linkIds.array, linkIds.length)
      if (!readable) linkIds.array.fill(0, linkIds.length, linkIds.length + ID_BYTES)
      linkIds.length += ID_BYTES
      this.#linkReadable.push(readable ? 1 : 0)
      const nom = spanLinkNom(k)
      this.#linkNamed.push(record.has(nom) ? 1 : 0)
      if (record.has(nom)) pushBytes(this.#linkNameBytes, bytes, record.start(nom), record.end(nom))
      this.#linkNameEnds.push(this.#linkNameBytes.length)
      if (readable) filiation = true
    }
    if (!filiation) this.#sansFiliation++
    return true
  }

  /** A dictionary code from the bytes (0 when the value is absent). */
  #spanCode(cache: InternerCache, record: RecordSpans, field: number): number {
    return record.has(field) ? cache.code(record.bytes, record.start(field), record.end(field)) : 0
  }

  #addSlugSpans(record: RecordSpans, nomStart: number, nomEnd: number): void {
    if (!record.has(SPAN_SLUG)) {
      this.#slugDeduced.push(0)
      this.#slugEnds.push(this.#slugBytes.length)
      return
    }
    const bytes = record.bytes
    const start = record.start(SPAN_SLUG)
    const end = record.end(SPAN_SLUG)
    const deduced = isSlugOfUtf8(bytes, start, end, nomStart, nomEnd) ??
      isSlugOf(textOfBytes(bytes, start, end), textOfBytes(bytes, nomStart, nomEnd))
    this.#slugDeduced.push(deduced ? 1 : 0)
    if (!deduced) {
      this.#slugsNonDeductibles++
      pushBytes(this.#slugBytes, bytes, start, end)
    }
    this.#slugEnds.push(this.#slugBytes.length)
  }

  #addSlug(slug: string | undefined, nom: string): void {
    const deduced = slug !== undefined && isSlugOf(slug, nom)
    this.#slugDeduced.push(deduced ? 1 : 0)
    if (slug !== undefined && !deduced) {
      this.#slugsNonDeductibles++
      pushText(this.#slugBytes, slug)
    }
    this.#slugEnds.push(this.#slugBytes.length)
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

  #addPerformances(performances: ReadonlyArray<SourcePerformance> | undefined): void {
    this.#performanceEncoder.encode(performances, this.#performanceBytes)
    this.#performanceEnds.push(this.#performanceBytes.length)
    if (performances !== undefined && performances.length > 0) {
      const disciplineStart = this.#disciplineCodes.length
      const indexStart = this.#indexCodes.length
      for (const performance of performances) {
        if (performance.discipline !== undefined) {
          pushDistinct(this.#disciplineCodes, disciplineStart, this.#discipline.code(performance.discipline))
        }
        for (const index of performance.indices ?? []) {
          if (index.code !== undefined) pushDistinct(this.#indexCodes, indexStart, this.#indice.code(index.code))
        }
      }
    }
    this.#disciplineEnds.push(this.#disciplineCodes.length)
    this.#indexEnds.push(this.#indexCodes.length)
  }

  /** Link `k` of the record; true when it carries a readable id (the record has a filiation). */
  #addLink(record: SourceRecord, k: number): boolean {
    const link = record[LINK_KEYS[k]]
    const race = this.#linkRaces.code(link?.race)
    this.#linkRace.push(race)
    if (race > 0) this.#linkRaceCounts[race] = (this.#linkRaceCounts[race] ?? 0) + 1
    const ids = this.#linkIds
    ids.reserve(ID_BYTES)
    const readable = link?.id !== undefined && decodeId(link.id, ids.array, ids.length)
    // An unreadable id leaves no partial bytes behind: both readers give the same batch.
    if (!readable) ids.array.fill(0, ids.length, ids.length + ID_BYTES)
    ids.length += ID_BYTES
    this.#linkReadable.push(readable ? 1 : 0)
    const nom = link?.nom
    this.#linkNamed.push(nom === undefined ? 0 : 1)
    if (nom !== undefined) pushText(this.#linkNameBytes, nom)
    this.#linkNameEnds.push(this.#linkNameBytes.length)
    return readable
  }

  /**
   * The rows encoded since the last call. In line (no `into`) the batch is a view on this
   * encoder's buffers, valid until the next `encode`. For another thread, its columns are copied
   * into one buffer of at least the given size, obtained from `into` (so one transfer moves the
   * batch, and the receiver can hand the buffer back for the next one).
   */
  take(into?: (byteLength: number) => ArrayBuffer): RowBatch {
    const columns = [
      this.#lines, this.#ids, this.#nomBytes, this.#nomEnds, this.#key, this.#slugDeduced, this.#slugBytes, this.#slugEnds,
      this.#filiationSpelled, this.#filiationBytes, this.#filiationEnds, this.#raceCodes, this.#robeCodes, this.#statutCodes,
      this.#sexeCodes, this.#year, this.#performanceBytes, this.#performanceEnds, this.#disciplineCodes, this.#disciplineEnds,
      this.#indexCodes, this.#indexEnds, this.#linkRace, this.#linkReadable, this.#linkIds, this.#linkNamed, this.#linkNameBytes,
      this.#linkNameEnds
    ]
    // Each column starts at a multiple of 4 bytes, as its element type may require.
    const sizeOf = (growable: Growable<Uint8Array | Uint32Array | Int32Array>) =>
      Math.ceil((growable.length * growable.array.BYTES_PER_ELEMENT) / 4) * 4
    const buffer = into?.(columns.reduce((total, growable) => total + sizeOf(growable), 0))
    let offset = 0
    const cut = <T extends Uint8Array | Uint32Array | Int32Array>(growable: Growable<T>): T => {
      let array = growable.array
      if (buffer !== undefined) {
        const make = array.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T
        const view = new make(buffer, offset, growable.length)
        view.set(array.subarray(0, growable.length))
        offset += sizeOf(growable)
        array = view
      }
      growable.length = 0
      return array
    }
    const batch: RowBatch = {
      size: this.#size,
      lines: cut(this.#lines),
      ids: cut(this.#ids),
      nom: { bytes: cut(this.#nomBytes), ends: cut(this.#nomEnds) },
      key: cut(this.#key),
      slugDeduced: cut(this.#slugDeduced),
      slug: { bytes: cut(this.#slugBytes), ends: cut(this.#slugEnds) },
      filiationSpelled: cut(this.#filiationSpelled),
      filiation: { bytes: cut(this.#filiationBytes), ends: cut(this.#filiationEnds) },
      race: cut(this.#raceCodes),
      robe: cut(this.#robeCodes),
      statut: cut(this.#statutCodes),
      sexe: cut(this.#sexeCodes),
      year: cut(this.#year),
      performances: { bytes: cut(this.#performanceBytes), ends: cut(this.#performanceEnds) },
      disciplines: { codes: cut(this.#disciplineCodes), ends: cut(this.#disciplineEnds) },
      indices: { codes: cut(this.#indexCodes), ends: cut(this.#indexEnds) },
      linkRace: cut(this.#linkRace),
      linkReadable: cut(this.#linkReadable),
      linkIds: cut(this.#linkIds),
      linkNamed: cut(this.#linkNamed),
      linkNames: { bytes: cut(this.#linkNameBytes), ends: cut(this.#linkNameEnds) }
    }
    this.#size = 0
    return batch
  }

  /** The dictionaries and counts, once every record is encoded (and taken). */
  summary(): EncoderSummary {
    return {
      illisibles: this.#illisibles,
      robeAbsente: this.#robeAbsente,
      anneeAbsente: this.#anneeAbsente,
      anneeMin: this.#anneeMin,
      anneeMax: this.#anneeMax,
      sansFiliation: this.#sansFiliation,
      slugsNonDeductibles: this.#slugsNonDeductibles,
      textesInvalides: this.#textesInvalides,
      typesInvalides: this.#typesInvalides,
      race: this.#race.values,
      robe: this.#robe.values,
      statut: this.#statut.values,
      discipline: this.#discipline.values,
      indice: this.#indice.values,
      linkRaces: this.#linkRaces.values,
      linkRaceCounts: Uint32Array.from(this.#linkRaces.values, (_, code) => this.#linkRaceCounts[code] ?? 0),
      performanceStrings: this.#performanceEncoder.strings,
      names: this.#names.summary()
    }
  }
}
