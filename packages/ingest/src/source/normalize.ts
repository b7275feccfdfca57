/**
 * Raw parsed values → `SourceRecord`, once per line of a 4.45-million-line file: plain code, no
 * Schema decode, nothing allocated for a field that is absent. The looseness rules live on
 * `SourceRecord`; the choices made here on top of them:
 * - only safe integers count as integers, and `-0` reads as `0`: beyond 2^53, and for the sign of
 *   zero, a number and its text disagree, and the CSV and JSON Lines readers must give equal records;
 * - a link, a performance or an index whose every field is absent is absent, and so is an empty list.
 */
import type { SourceIndex, SourceLink, SourcePerformance, SourceRecord } from "@equides/domain"
import * as Predicate from "effect/Predicate"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

export const presentText = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined

export const presentInteger = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isSafeInteger(value) ? value + 0 : undefined

const presentNumber = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value + 0 : undefined

// `valeur` is signed text (`+59`); some rows carry a bare number, whose text is kept.
const presentValeur = (value: unknown): string | undefined =>
  typeof value === "string" ? (value.length > 0 ? value : undefined) : presentNumber(value)?.toString()

export const normalizeLink = (value: unknown): SourceLink | undefined => {
  if (!Predicate.isObject(value)) return undefined
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
  if (!Predicate.isObject(value)) return undefined
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
  if (!Array.isArray(value)) return undefined
  let indices: Array<SourceIndex> | undefined
  for (let i = 0; i < value.length; i++) {
    const index = normalizeIndex(value[i])
    if (index !== undefined) (indices ??= []).push(index)
  }
  return indices
}

const normalizePerformance = (value: unknown): SourcePerformance | undefined => {
  if (!Predicate.isObject(value)) return undefined
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
  if (!Array.isArray(value)) return undefined
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
 */
export const normalizeRecord = (value: unknown): SourceRecord | undefined => {
  if (!Predicate.isObject(value)) return undefined
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
  return record
}

/** A JSON value's type for error messages: `an array`, `null`, `a string`… */
export const describeJsonType = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  const type = typeof value
  return type === "object" ? "an object" : `a ${type}`
}
