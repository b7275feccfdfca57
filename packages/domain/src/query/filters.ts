/**
 * The shared filter parameters of GET /v1/equides and GET /v1/stats/repartition (spec "Shared
 * filter parameters", design 2.2), resolved against the Dataset's dictionaries.
 *
 * Input: values already decoded from the query string (arrays for repeatable parameters). Each
 * element of a repeatable parameter may hold several values separated by commas; they are split
 * and trimmed. Reference-list values are matched by folded whole-value comparison (case- and
 * accent-insensitive: `selle francais` matches `Selle Francais`); one folded value may match
 * several raw values of the source (`Selle Francais` and `SELLE FRANÇAIS`), all are kept (OR).
 * Within a dimension values combine with OR, across dimensions with AND.
 */
import * as Result from "effect/Result"
import { type Dimension, dictionarySize, dictionaryValue, dictionaryValues, lowerBound, type Vocabulary } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { foldedCodes } from "../dataset/foldedCodes.ts"
import { foldValue, foldWords } from "../text/fold.ts"
import { hintFor, nearestValues, quote } from "../refusal/hints.ts"
import { notAnInteger, valueNotAdmitted } from "../refusal/messages.ts"
import { InvalidParameter, notAdmitted, type QueryResult } from "./errors.ts"

/** Raw filter values as decoded from the query (absent parameters are `undefined` or omitted). */
export interface FilterInput {
  readonly race?: ReadonlyArray<string> | undefined
  readonly robe?: ReadonlyArray<string> | undefined
  readonly sexe?: ReadonlyArray<string> | undefined
  readonly discipline?: ReadonlyArray<string> | undefined
  readonly indice?: ReadonlyArray<string> | undefined
  readonly statut_reproducteur?: ReadonlyArray<string> | undefined
  readonly annee_naissance?: ReadonlyArray<string | number> | undefined
  readonly nom?: string | undefined
  readonly annee_min?: number | undefined
  readonly annee_max?: number | undefined
  readonly avec_performances?: string | boolean | undefined
}

/**
 * Filters resolved to dictionary codes. `undefined` = the filter is absent. A code list is sorted
 * ascending and distinct; an empty list (possible only for `annee`: a year no row has, or an empty
 * `annee_min`..`annee_max` range) matches nothing.
 */
export interface ResolvedFilters {
  readonly race: ReadonlyArray<number> | undefined
  readonly robe: ReadonlyArray<number> | undefined
  readonly sexe: ReadonlyArray<number> | undefined
  readonly statut: ReadonlyArray<number> | undefined
  /** Codes of the `annee` dimension: `annee_naissance` ∩ [`annee_min`, `annee_max`]. */
  readonly annee: ReadonlyArray<number> | undefined
  /** Codes of `data.discipline`. */
  readonly discipline: ReadonlyArray<number> | undefined
  /** Codes of `data.indice`. */
  readonly indice: ReadonlyArray<number> | undefined
  /** Folded words of `nom`, distinct, each a prefix of some word of the name. */
  readonly nom: ReadonlyArray<string> | undefined
  readonly avecPerformances: boolean | undefined
}

export const NO_FILTERS: ResolvedFilters = {
  race: undefined,
  robe: undefined,
  sexe: undefined,
  statut: undefined,
  annee: undefined,
  discipline: undefined,
  indice: undefined,
  nom: undefined,
  avecPerformances: undefined
}

export const isUnfiltered = (filters: ResolvedFilters): boolean =>
  filters.race === undefined &&
  filters.robe === undefined &&
  filters.sexe === undefined &&
  filters.statut === undefined &&
  filters.annee === undefined &&
  filters.discipline === undefined &&
  filters.indice === undefined &&
  filters.nom === undefined &&
  filters.avecPerformances === undefined

// ---------------------------------------------------------------------------------------------
// Folded lookups, on each vocabulary's folded order (dataset/foldedCodes.ts).

const yearTables = new WeakMap<Dimension, Int32Array>()

/** Birth year of each code of the `annee` dimension (index 0 unused), ascending from code 1. */
export const yearOfCode = (annee: Dimension): Int32Array => {
  let years = yearTables.get(annee)
  if (years === undefined) {
    years = new Int32Array(dictionarySize(annee.values))
    for (let code = 1; code < years.length; code++) years[code] = Number(dictionaryValue(annee.values, code))
    yearTables.set(annee, years)
  }
  return years
}

/** Code of a birth year in the `annee` dimension, 0 when no row has it. */
export const codeOfYear = (annee: Dimension, year: number): number => {
  const years = yearOfCode(annee)
  const code = lowerBound(years, year, 1)
  return code < years.length && years[code] === year ? code : 0
}

// ---------------------------------------------------------------------------------------------
// Parameter parsing.

/** Elements split on commas and trimmed: `["A, B", "C"]` → `["A", "B", "C"]`. */
export const splitValues = (input: ReadonlyArray<string | number>): Array<string> => {
  const out: Array<string> = []
  for (const element of input) {
    if (typeof element === "number") out.push(String(element))
    else for (const part of element.split(",")) out.push(part.trim())
  }
  return out
}

const REFERENTIEL: Record<string, string> = {
  race: "races",
  robe: "robes",
  sexe: "sexes",
  discipline: "disciplines",
  indice: "codes_indice",
  code: "codes_indice",
  statut_reproducteur: "statuts_reproducteur"
}

export const admittedHint = (parametre: string): string => `valeurs admises : /v1/referentiels/${REFERENTIEL[parametre]}`

/** Resolves the values of one reference-list parameter to codes of `vocabulary` (OR). */
export const resolveCodes = (
  parametre: string,
  input: ReadonlyArray<string>,
  vocabulary: Vocabulary
): QueryResult<ReadonlyArray<number>> => {
  const codes = new Set<number>()
  for (const value of splitValues(input)) {
    const matched = value === "" ? [] : foldedCodes(vocabulary, foldValue(value))
    if (matched.length === 0) {
      const nearest = value === "" ? [] : nearestValues(value, dictionaryValues(vocabulary.values).slice(1))
      return Result.fail(notAdmitted(parametre, value, hintFor(nearest, admittedHint(parametre))))
    }
    for (const code of matched) codes.add(code)
  }
  return Result.succeed([...codes].sort((a, b) => a - b))
}

const INTEGER = /^[+-]?\d{1,15}$/

/** The years of `annee_naissance` (integers; commas split). */
export const parseYears = (input: ReadonlyArray<string | number>): QueryResult<Array<number>> => {
  const years: Array<number> = []
  for (const value of splitValues(input)) {
    const year = INTEGER.test(value) ? Number(value) : Number.NaN
    if (!Number.isSafeInteger(year)) {
      return Result.fail(
        new InvalidParameter({
          parametre: "annee_naissance",
          detail: value === ""
            ? valueNotAdmitted("annee_naissance", value)
            : `La valeur ${quote(value)} n'est pas une année (entier) pour annee_naissance.`,
          indice: "un entier, par exemple annee_naissance=2012 ; années présentes : /v1/referentiels/annees_naissance"
        })
      )
    }
    years.push(year)
  }
  return Result.succeed(years)
}

const checkInteger = (parametre: string, value: number): InvalidParameter | undefined =>
  Number.isSafeInteger(value)
    ? undefined
    : new InvalidParameter({
      parametre,
      detail: notAnInteger(parametre, String(value)),
      indice: `un entier, par exemple ${parametre}=2012`
    })

const TRUE = new Set(["true", "1", "oui"])
const FALSE = new Set(["false", "0", "non"])

/** `true`, `false`, `1`, `0`, `oui`, `non`, case-insensitive. */
export const parseBoolean = (parametre: string, value: string | boolean): QueryResult<boolean> => {
  if (typeof value === "boolean") return Result.succeed(value)
  const v = value.trim().toLowerCase()
  if (TRUE.has(v)) return Result.succeed(true)
  if (FALSE.has(v)) return Result.succeed(false)
  return Result.fail(notAdmitted(parametre, value, "valeurs admises : true, false, 1, 0, oui, non"))
}

/** Folded words of `nom` (distinct); blank → InvalidParameter. */
export const parseNom = (nom: string): QueryResult<ReadonlyArray<string>> => {
  const words = [...new Set(foldWords(nom))]
  if (words.length === 0) {
    return Result.fail(
      new InvalidParameter({
        parametre: "nom",
        detail: nom.trim() === ""
          ? valueNotAdmitted("nom", nom)
          : `La valeur ${quote(nom)} ne contient aucun mot (lettres ou chiffres) pour nom.`,
        indice: "un ou plusieurs débuts de mots du nom, par exemple nom=jappe"
      })
    )
  }
  return Result.succeed(words)
}

// ---------------------------------------------------------------------------------------------

/** Year codes of `annee_naissance` ∩ [`annee_min`, `annee_max`]; undefined when none is given. */
const resolveYears = (
  data: DatasetData,
  input: FilterInput
): QueryResult<ReadonlyArray<number> | undefined> => {
  const { annee_min, annee_max } = input
  for (const [name, value] of [["annee_min", annee_min], ["annee_max", annee_max]] as const) {
    if (value !== undefined) {
      const error = checkInteger(name, value)
      if (error !== undefined) return Result.fail(error)
    }
  }
  if (input.annee_naissance === undefined && annee_min === undefined && annee_max === undefined) {
    return Result.succeed(undefined)
  }
  const years = yearOfCode(data.annee)
  const lo = annee_min === undefined ? 1 : lowerBound(years, annee_min, 1)
  const hi = annee_max === undefined ? years.length : lowerBound(years, annee_max + 1, 1)
  if (input.annee_naissance === undefined) {
    const codes: Array<number> = []
    for (let code = lo; code < hi; code++) codes.push(code)
    return Result.succeed(codes)
  }
  const parsed = parseYears(input.annee_naissance)
  if (Result.isFailure(parsed)) return Result.fail(parsed.failure)
  const codes = new Set<number>()
  for (const year of parsed.success) {
    const code = codeOfYear(data.annee, year)
    if (code !== 0 && code >= lo && code < hi) codes.add(code)
  }
  return Result.succeed([...codes].sort((a, b) => a - b))
}

/**
 * Resolves the shared filters against the Dataset. The first invalid parameter (in the order of
 * FILTER_PARAMETERS) is reported.
 */
export const resolveFilters = (data: DatasetData, input: FilterInput): QueryResult<ResolvedFilters> => {
  const dims: Array<[keyof FilterInput, Vocabulary]> = [
    ["race", data.race],
    ["robe", data.robe],
    ["sexe", data.sexe],
    ["discipline", data.discipline],
    ["indice", data.indice]
  ]
  const resolved: Record<string, ReadonlyArray<number> | undefined> = {}
  for (const [name, vocabulary] of dims) {
    const raw = input[name] as ReadonlyArray<string> | undefined
    if (raw === undefined) continue
    const codes = resolveCodes(name, raw, vocabulary)
    if (Result.isFailure(codes)) return Result.fail(codes.failure)
    resolved[name] = codes.success
  }
  const annee = resolveYears(data, input)
  if (Result.isFailure(annee)) return Result.fail(annee.failure)
  let nom: ReadonlyArray<string> | undefined
  if (input.nom !== undefined) {
    const words = parseNom(input.nom)
    if (Result.isFailure(words)) return Result.fail(words.failure)
    nom = words.success
  }
  let avecPerformances: boolean | undefined
  if (input.avec_performances !== undefined) {
    const flag = parseBoolean("avec_performances", input.avec_performances)
    if (Result.isFailure(flag)) return Result.fail(flag.failure)
    avecPerformances = flag.success
  }
  let statut: ReadonlyArray<number> | undefined
  if (input.statut_reproducteur !== undefined) {
    const codes = resolveCodes("statut_reproducteur", input.statut_reproducteur, data.statut)
    if (Result.isFailure(codes)) return Result.fail(codes.failure)
    statut = codes.success
  }
  return Result.succeed({
    race: resolved.race,
    robe: resolved.robe,
    sexe: resolved.sexe,
    statut,
    annee: annee.success,
    discipline: resolved.discipline,
    indice: resolved.indice,
    nom,
    avecPerformances
  })
}
