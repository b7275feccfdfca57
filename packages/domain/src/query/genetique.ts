/**
 * The whole registry's genetics as served (issue 27, design §6): `GET /v1/equides/{id}/genetique`
 * (one horse's columns, its breed's reference population and its mean coancestry with it) and
 * `GET /v1/stats/genetique` (a breed's inbreeding by birth year, its reference population's founders
 * and ancestors). The per-record columns are the Dataset's (`DatasetData.genetics`); what a breed
 * needs beyond them (one indirect pass, f_e, f_a) is computed on first use in the thread that
 * answers (a query worker) and kept there.
 */
import { Result } from "effect"
import { dictionaryValue, postingsOf } from "../dataset/columns.ts"
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { ancestorContributions } from "../genetics/ancestors.ts"
import { ancestryOf } from "../genetics/ancestry.ts"
import { completeGenerationsOf, equivalentGenerationsOf } from "../genetics/columns.ts"
import { founderContributions } from "../genetics/founders.ts"
import { generationInterval } from "../genetics/interval.ts"
import { type OrderedPedigree, rowPedigree } from "../genetics/ordered.ts"
import { type ReferencePopulation, referencePopulation } from "../genetics/reference.ts"
import { meanCoancestry } from "../genetics/relationship.ts"
import { individualIncrease, yearFigures } from "../genetics/trend.ts"
import type { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import { foldValue } from "../text/fold.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { foldedCodes, resolveCodes, resolveFilters } from "./filters.ts"
import { anneeOf, idOf, nomOf, raceOf, sexeOf } from "./record.ts"
import { select } from "./select.ts"
import { selectionRows } from "./selection.ts"

/** Ancestors listed in `principaux_ancetres`. */
export const PRINCIPAUX_ANCETRES = 20
/** Breeds whose mean coancestry column (4 bytes a record) a thread keeps. */
const PARENTE_KEPT = 1
/** `/v1/stats/genetique` answers a thread keeps. */
const ANSWERS_KEPT = 256
/**
 * Breeds (reference population, mean F) and their founders and ancestors a thread keeps: every
 * `race` spelling can be a breed (359 242 on the hard extract), so a caller walking them must not
 * grow a worker without bound; past this many the thread starts again (a breed's figures cost a
 * selection and, for its f_e and f_a, one pass).
 */
const BREEDS_KEPT = 1024

/** Served F, t, ΔF and mean coancestry: single precision, so seven significant digits. */
export const single = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(7)))

/** The year of `ingere_le`: the year of loading of the design (fixed by the file, not by the clock). */
const loadYearOf = (data: DatasetData): number => Number(data.provenance.ingestedAt.slice(0, 4))

interface Breed {
  /** The race as its records spell it (the most frequent spelling), null for the whole extract. */
  readonly race: string | null
  readonly reference: ReferencePopulation | null
  readonly meanInbreeding: number
}

interface ThreadState {
  /** The rows as a pedigree: the generation order and the links are the Dataset's (shared), not the thread's. */
  readonly pedigree: OrderedPedigree
  readonly breeds: Map<string, Breed>
  /** Mean coancestry with a breed's reference population, by row, single precision; the most recent last. */
  readonly parente: Map<string, Float32Array>
  readonly answers: Map<string, StatsGenetique>
  /** Founders and ancestors of a breed's reference population (whatever the years asked). */
  readonly populations: Map<string, StatsGenetique["reference"]>
}

const states = new WeakMap<DatasetData, ThreadState>()

const stateOf = (data: DatasetData): ThreadState => {
  let state = states.get(data)
  if (state === undefined) {
    const pedigree = rowPedigree({ sire: data.links.pere.row, dam: data.links.mere.row }, data.genetics)
    state = { pedigree, breeds: new Map(), parente: new Map(), answers: new Map(), populations: new Map() }
    states.set(data, state)
  }
  return state
}

/** The race codes a folded race value covers, ascending; the key of a breed is their list. */
const breedKey = (codes: ReadonlyArray<number> | undefined): string => (codes === undefined ? "*" : codes.join(","))

const breedOf = (data: DatasetData, codes: ReadonlyArray<number> | undefined): Breed => {
  const state = stateOf(data)
  const key = breedKey(codes)
  const known = state.breeds.get(key)
  if (known !== undefined) return known
  // Without codes, the whole extract: every row, none listed.
  let rows: Uint32Array | undefined
  let race: string | null = null
  if (codes !== undefined) {
    const parts = codes.map((code) => postingsOf(data.race.rows, code))
    const all = new Uint32Array(parts.reduce((sum, p) => sum + p.length, 0))
    let at = 0
    let most = -1
    for (const [k, part] of parts.entries()) {
      all.set(part, at)
      at += part.length
      if (most < 0 || part.length > parts[most].length) most = k
    }
    rows = all.sort()
    race = dictionaryValue(data.race.values, codes[most])
  }
  const reference = referencePopulation(data.year, NO_YEAR, rows, loadYearOf(data))
  let meanInbreeding = 0
  if (reference !== null) {
    for (let k = 0; k < reference.rows.length; k++) meanInbreeding += data.genetics.inbreeding[reference.rows[k]]
    meanInbreeding /= reference.rows.length
  }
  const breed: Breed = { race, reference, meanInbreeding }
  if (state.breeds.size >= BREEDS_KEPT) state.breeds.clear()
  state.breeds.set(key, breed)
  return breed
}

/** The codes of the breed a row belongs to: every race spelling that folds as its own; undefined without a race. */
const codesOfRow = (data: DatasetData, row: number): ReadonlyArray<number> | undefined => {
  const code = data.race.codes[row]
  if (code === 0) return undefined
  return foldedCodes(data.race, foldValue(dictionaryValue(data.race.values, code)))
}

const parenteOf = (data: DatasetData, key: string, breed: Breed): Float32Array => {
  const state = stateOf(data)
  const known = state.parente.get(key)
  if (known !== undefined) {
    state.parente.delete(key)
    state.parente.set(key, known)
    return known
  }
  const values = meanCoancestry(state.pedigree, data.genetics.inbreeding, breed.reference?.rows ?? [])
  // The column dropped is the new one's memory: a thread holds PARENTE_KEPT columns at most, none
  // of them waiting for a full collection to give its 4 bytes a record back (a miss costs one pass).
  let dropped: Float32Array | undefined
  if (state.parente.size >= PARENTE_KEPT) {
    const oldest = state.parente.keys().next().value!
    dropped = state.parente.get(oldest)
    state.parente.delete(oldest)
  }
  const column = dropped?.length === values.length ? dropped : new Float32Array(values.length)
  column.set(values)
  state.parente.set(key, column)
  return column
}

/**
 * Drops the thread's kept mean coancestry columns (4 bytes a record each). The warm-up computes one
 * to compile the pass, and an idle worker need not hold it: 17 MiB a worker at 4.45 M records
 * against one pass (0.3 s) for the first request of that breed, which any breed not kept pays.
 */
export const dropBreedColumns = (data: DatasetData): void => {
  states.get(data)?.parente.clear()
}

const referenceOf = (data: DatasetData, row: number, breed: Breed | undefined): Genetique["reference"] => {
  const reference = breed?.reference ?? null
  return breed === undefined || reference === null ? null : {
    race: breed.race ?? raceOf(data, row),
    annee_min: reference.annee_min,
    annee_max: reference.annee_max,
    effectif: reference.rows.length,
    consanguinite_moyenne: breed.meanInbreeding
  }
}

/**
 * The `reference` of `/v1/equides/{id}/genetique` of `row` alone: its breed's reference population,
 * without the mean coancestry's indirect pass (what a page shows beside the horse's F).
 */
export const breedReference = (data: DatasetData, row: number): Genetique["reference"] => {
  const codes = codesOfRow(data, row)
  return referenceOf(data, row, codes === undefined ? undefined : breedOf(data, codes))
}

/** The rows as a pedigree, in the Dataset's generation order. */
export const threadPedigree = (data: DatasetData): OrderedPedigree => stateOf(data).pedigree

/**
 * Every row's mean coancestry with the reference population of `row`'s breed (kept as the
 * `genetique` route keeps it), or null: `row` has no race, or its breed no reference population.
 * The column is the thread's: read it before asking for PARENTE_KEPT other breeds, which reuse it.
 */
export const breedParente = (data: DatasetData, row: number): Float32Array | null => {
  const codes = codesOfRow(data, row)
  if (codes === undefined) return null
  const breed = breedOf(data, codes)
  return breed.reference === null ? null : parenteOf(data, breedKey(codes), breed)
}

/** `GET /v1/equides/{id}/genetique` of `row`. */
export const genetique = (data: DatasetData, row: number): Genetique => {
  const { inbreeding, longestLine } = data.genetics
  const F = inbreeding[row]
  const t = equivalentGenerationsOf(data.genetics, row)
  const increase = individualIncrease(F, t)
  const codes = codesOfRow(data, row)
  const breed = codes === undefined ? undefined : breedOf(data, codes)
  const parente = breed === undefined || breed.reference === null
    ? null
    : single(parenteOf(data, breedKey(codes), breed)[row])
  return {
    id: idOf(data, row),
    consanguinite: single(F),
    generations_equivalentes: single(t),
    generations_completes: completeGenerationsOf(data.genetics, row),
    generations_max: longestLine[row],
    accroissement_individuel: increase === null ? null : single(increase),
    parente_moyenne: parente,
    reference: referenceOf(data, row, breed)
  }
}

/** The parameters of `/v1/stats/genetique` as decoded. */
export interface GenetiqueInput {
  readonly race?: ReadonlyArray<string> | undefined
  readonly annee_min?: number | undefined
  readonly annee_max?: number | undefined
}

const populationOf = (data: DatasetData, breed: Breed): StatsGenetique["reference"] => {
  const reference = breed.reference
  if (reference === null) return null
  const { pedigree } = stateOf(data)
  const ancestry = ancestryOf(pedigree, reference.rows)
  const founders = founderContributions(pedigree, reference.rows, ancestry)
  const ancestors = ancestorContributions(pedigree, reference.rows, ancestry)
  return {
    annee_min: reference.annee_min,
    annee_max: reference.annee_max,
    effectif: reference.rows.length,
    fondateurs_efficaces: founders.effective ?? 0,
    ancetres_efficaces: ancestors.effective,
    ancetres_retenus: ancestors.chosen.length,
    contribution_expliquee: Math.min(1, ancestors.explained),
    intervalle_generation: generationInterval(pedigree, data.year, NO_YEAR, reference.rows, ancestry),
    principaux_ancetres: ancestors.chosen.slice(0, PRINCIPAUX_ANCETRES).map(({ contribution, node: row }) => ({
      id: idOf(data, row),
      nom: nomOf(data, row),
      race: raceOf(data, row),
      sexe: sexeOf(data, row),
      annee_naissance: anneeOf(data, row) ?? null,
      contribution
    }))
  }
}

/** `GET /v1/stats/genetique`, or the parameter it refuses. */
export const statsGenetique = (data: DatasetData, query: GenetiqueInput): QueryResult<StatsGenetique> => {
  const { annee_max, annee_min, race } = query
  if (annee_min !== undefined && annee_max !== undefined && annee_min > annee_max) {
    return Result.fail(
      new InvalidParameter({
        parametre: "annee_min",
        detail: `annee_min (${annee_min}) dépasse annee_max (${annee_max}) : l'intervalle d'années est vide.`,
        indice: "Donner annee_min ≤ annee_max."
      })
    )
  }
  let codes: ReadonlyArray<number> | undefined
  if (race !== undefined) {
    const resolved = resolveCodes("race", race, data.race)
    if (Result.isFailure(resolved)) return Result.fail(resolved.failure)
    codes = resolved.success
  }
  const state = stateOf(data)
  const key = `${breedKey(codes)}|${annee_min ?? ""}|${annee_max ?? ""}`
  const known = state.answers.get(key)
  if (known !== undefined) return Result.succeed(known)
  const filters = resolveFilters(data, {
    ...(race === undefined ? {} : { race }),
    ...(annee_min === undefined ? {} : { annee_min }),
    ...(annee_max === undefined ? {} : { annee_max })
  })
  if (Result.isFailure(filters)) return Result.fail(filters.failure)
  const selection = select(data, filters.success)
  const breed = breedOf(data, codes)
  const answer: StatsGenetique = {
    race: breed.race,
    annees: yearFigures(
      { inbreeding: data.genetics.inbreeding, equivalentGenerations: data.genetics.depthEquivalent, depth: data.genetics.depth },
      data.year,
      NO_YEAR,
      selectionRows(selection)
    ),
    reference: state.populations.get(breedKey(codes)) ?? populationOf(data, breed)
  }
  if (state.populations.size >= BREEDS_KEPT) state.populations.clear()
  state.populations.set(breedKey(codes), answer.reference)
  if (state.answers.size >= ANSWERS_KEPT) state.answers.clear()
  state.answers.set(key, answer)
  return Result.succeed(answer)
}
