/**
 * Raw parsed values → `SourceRecord`, once per line of a 4.45-million-line file: plain code, no
 * Schema decode, nothing allocated for a field that is absent. The looseness rules live on
 * `SourceRecord`; the choices made here on top of them:
 * - only safe integers count as integers, and `-0` reads as `0`: beyond 2^53, and for the sign of
 *   zero, a number and its text disagree, and the CSV and JSON Lines readers must give equal records;
 * - a link, a performance or an index whose every field is absent is absent, and so is an empty list;
 * - a value that is present but unusable is absent too, and counted (`anomalies`), never
 *   rewritten: text that is not well-formed (bytes that were not UTF-8, marked by the reader with
 *   `INVALID_UTF8`; a lone surrogate written as an escape) in `invalidText`, a value of another
 *   JSON type than its field's (`nom: 123`, `sexe: ["Male"]`, `pere: "X"`) in `wrongType`. `null`
 *   and `""` are absent, not a wrong type.
 */
import type { RejectedValues, SourceIndex, SourceLink, SourcePerformance, SourceRecord } from "@equides/domain"
import * as Predicate from "effect/Predicate"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * What a reader puts in place of each byte sequence that is not UTF-8 (`markInvalidUtf8`): the
 * noncharacter U+FFFF, which Unicode reserves for such internal use. Looked for only in lines or
 * chunks that held such bytes, so a source's own U+FFFF elsewhere is left alone.
 */
export const INVALID_UTF8 = "\uFFFF"

/**
 * The values dropped while normalising the current record (`startRecord` resets them). Module
 * state rather than a parameter threaded through every helper: normalising is synchronous and
 * one record at a time.
 */
const dropped = { invalidText: 0, wrongType: 0, marked: false }

/** Starts a record; `marked`: its text may hold `INVALID_UTF8` marks. */
export const startRecord = (marked: boolean): void => {
  dropped.invalidText = 0
  dropped.wrongType = 0
  dropped.marked = marked
}

/** The values dropped since `startRecord`, when there are any. */
export const droppedValues = (): RejectedValues | undefined =>
  dropped.invalidText === 0 && dropped.wrongType === 0 ? undefined : { invalidText: dropped.invalidText, wrongType: dropped.wrongType }

/** A value that is neither absent (`undefined`, `null`, `""`) nor of the expected type. */
const wrongType = (value: unknown): undefined => {
  if (value !== undefined && value !== null && value !== "") dropped.wrongType++
  return undefined
}

/** A text as it will be served, or undefined (counted) when it is not well-formed. */
const wellFormed = (text: string): string | undefined => {
  if (text.isWellFormed() && !(dropped.marked && text.includes(INVALID_UTF8))) return text
  dropped.invalidText++
  return undefined
}

/** A non-empty text of the current record, checked for marks only when it may hold some (CSV cells). */
export const markedText = (text: string): string | undefined => (dropped.marked ? wellFormed(text) : text)

export const presentText = (value: unknown): string | undefined =>
  typeof value === "string" ? (value.length > 0 ? wellFormed(value) : undefined) : wrongType(value)

export const presentInteger = (value: unknown): number | undefined =>
  typeof value === "number" ? (Number.isSafeInteger(value) ? value + 0 : undefined) : wrongType(value)

const presentNumber = (value: unknown): number | undefined =>
  typeof value === "number" ? (Number.isFinite(value) ? value + 0 : undefined) : wrongType(value)

/** An object with named fields (an array is a wrong type). */
const isFields = (value: unknown): value is { readonly [key: string]: unknown } => {
  if (Predicate.isObject(value) && !Array.isArray(value)) return true
  wrongType(value)
  return false
}

// `valeur` is signed text (`+59`); some rows carry a bare number, whose text is kept.
const presentValeur = (value: unknown): string | undefined =>
  typeof value === "string" ? presentText(value) : presentNumber(value)?.toString()

export const normalizeLink = (value: unknown): SourceLink | undefined => {
  if (!isFields(value)) return undefined
  const id = presentText(value.id)
  const nom = presentText(value.nom)
  const race = presentText(value.race)
  const pays = presentText(value.pays)
  const alias = presentText(value.alias)
  return linkOf(id, nom, race, pays, alias)
}

/** Also used by the CSV reader, whose links arrive as five cells. */
export const linkOf = (
  id: string | undefined,
  nom: string | undefined,
  race: string | undefined,
  pays: string | undefined,
  alias: string | undefined
): SourceLink | undefined => {
  if (id === undefined && nom === undefined && race === undefined && pays === undefined && alias === undefined) {
    return undefined
  }
  const link: Mutable<SourceLink> = {}
  if (id !== undefined) link.id = id
  if (nom !== undefined) link.nom = nom
  if (race !== undefined) link.race = race
  if (pays !== undefined) link.pays = pays
  if (alias !== undefined) link.alias = alias
  return link
}

const normalizeIndex = (value: unknown): SourceIndex | undefined => {
  if (!isFields(value)) return undefined
  const annee = presentInteger(value.annee)
  const appreciation = presentText(value.appreciation)
  const code = presentText(value.code)
  const coefficient = presentNumber(value.coefficient)
  const valeur = presentValeur(value.valeur)
  if (
    annee === undefined && appreciation === undefined && code === undefined && coefficient === undefined &&
    valeur === undefined
  ) return undefined
  const index: Mutable<SourceIndex> = {}
  if (annee !== undefined) index.annee = annee
  if (appreciation !== undefined) index.appreciation = appreciation
  if (code !== undefined) index.code = code
  if (coefficient !== undefined) index.coefficient = coefficient
  if (valeur !== undefined) index.valeur = valeur
  return index
}

const normalizeIndices = (value: unknown): ReadonlyArray<SourceIndex> | undefined => {
  if (!Array.isArray(value)) return wrongType(value)
  let indices: Array<SourceIndex> | undefined
  for (let i = 0; i < value.length; i++) {
    const index = normalizeIndex(value[i])
    if (index !== undefined) (indices ??= []).push(index)
  }
  return indices
}

const normalizePerformance = (value: unknown): SourcePerformance | undefined => {
  if (!isFields(value)) return undefined
  const discipline = presentText(value.discipline)
  const texte = presentText(value.texte)
  const indices = normalizeIndices(value.indices)
  if (discipline === undefined && texte === undefined && indices === undefined) return undefined
  const performance: Mutable<SourcePerformance> = {}
  if (discipline !== undefined) performance.discipline = discipline
  if (texte !== undefined) performance.texte = texte
  if (indices !== undefined) performance.indices = indices
  return performance
}

export const normalizePerformances = (value: unknown): ReadonlyArray<SourcePerformance> | undefined => {
  if (!Array.isArray(value)) return wrongType(value)
  let performances: Array<SourcePerformance> | undefined
  for (let i = 0; i < value.length; i++) {
    const performance = normalizePerformance(value[i])
    if (performance !== undefined) (performances ??= []).push(performance)
  }
  return performances
}

/**
 * `undefined` when the value is not a JSON object (the reader turns that into a load error).
 * Only known keys are read, so `naisseur` and any unknown key never leave the parsed value.
 * `marked`: the line held bytes that were not UTF-8, marked with `INVALID_UTF8`.
 */
export const normalizeRecord = (value: unknown, marked = false): SourceRecord | undefined => {
  if (!Predicate.isObject(value) || Array.isArray(value)) return undefined
  startRecord(marked)
  const record: Mutable<SourceRecord> = {}
  let text = presentText(value.id)
  if (text !== undefined) record.id = text
  if ((text = presentText(value.slug)) !== undefined) record.slug = text
  if ((text = presentText(value.nom)) !== undefined) record.nom = text
  if ((text = presentText(value.race)) !== undefined) record.race = text
  if ((text = presentText(value.sexe)) !== undefined) record.sexe = text
  if ((text = presentText(value.robe)) !== undefined) record.robe = text
  const annee = presentInteger(value.annee_naissance)
  if (annee !== undefined) record.annee_naissance = annee
  if ((text = presentText(value.statut_reproducteur)) !== undefined) record.statut_reproducteur = text
  if ((text = presentText(value.record)) !== undefined) record.record = text
  if ((text = presentText(value.filiation_texte)) !== undefined) record.filiation_texte = text
  const pere = normalizeLink(value.pere)
  if (pere !== undefined) record.pere = pere
  const mere = normalizeLink(value.mere)
  if (mere !== undefined) record.mere = mere
  const pereDeMere = normalizeLink(value.pere_de_mere)
  if (pereDeMere !== undefined) record.pere_de_mere = pereDeMere
  const performances = normalizePerformances(value.performances)
  if (performances !== undefined) record.performances = performances
  const rejected = droppedValues()
  if (rejected !== undefined) record.rejected = rejected
  return record
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80

/**
 * The length of the well-formed UTF-8 sequence at `bytes[i]`, or 0 when it is not one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short).
 */
const sequenceAt = (bytes: Uint8Array, i: number, end: number): number => {
  const b = bytes[i]
  if (b < 0x80) return 1
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (length === 0 || i + length > end) return 0
  const second = bytes[i + 1]
  // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
  if (second < low || second > high) return 0
  for (let k = 2; k < length; k++) if (!isContinuation(bytes[i + k])) return 0
  return length
}

const MARK = Buffer.from(INVALID_UTF8, "utf8")

/**
 * `bytes[start..end]` with each maximal run of bytes that are not UTF-8 replaced by the bytes of
 * `INVALID_UTF8` (the caller has found that some are not: `isUtf8`).
 */
export const markInvalidUtf8 = (bytes: Uint8Array, start: number, end: number): Buffer => {
  const parts: Array<Uint8Array> = []
  let from = start
  let i = start
  while (i < end) {
    const length = sequenceAt(bytes, i, end)
    if (length > 0) {
      i += length
      continue
    }
    if (i > from) parts.push(bytes.subarray(from, i))
    parts.push(MARK)
    i++
    while (i < end && sequenceAt(bytes, i, end) === 0) i++
    from = i
  }
  if (end > from) parts.push(bytes.subarray(from, end))
  return Buffer.concat(parts)
}

/** A JSON value's type for error messages: `an array`, `null`, `a string`… */
export const describeJsonType = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  const type = typeof value
  return type === "object" ? "an object" : `a ${type}`
}
