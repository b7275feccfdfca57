/**
 * The whole registry's genetics as served (issue 27, design §6): `GET /v1/equides/{id}/genetique`
 * (one horse's columns, its breed's reference population and its mean coancestry with it) and
 * `GET /v1/stats/genetique` (a breed's inbreeding by birth year, its reference population's founders
 * and ancestors), and the mare's relatives and row of A the stallion ranking reads (etalons.ts).
 * The per-record columns are the Dataset's (`DatasetData.genetics`), and so are the large breeds'
 * shares and the whole extract's founders and ancestors; what a breed needs beyond them (its
 * shares when small, its f_e and f_a) is computed on first use in the thread that answers (a
 * query worker) and kept there.
 */
import * as Result from "effect/Result"
import { dictionaryValue, postingsCount } from "../dataset/columns.ts"
import { codesFoldingAs } from "../dataset/foldedCodes.ts"
import { heldBreed, meanOf, rowsOfCodes } from "../genetics/breedShares.ts"
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { completeGenerationsOf, equivalentGenerationsOf, inbreedingOf } from "../genetics/columns.ts"
import { diversityHeld, diversityOf } from "../genetics/diversity.ts"
import { type OrderedPedigree, rowPedigree } from "../genetics/ordered.ts"
import { loadYear, type ReferencePopulation, referencePopulation } from "../genetics/reference.ts"
import { type GroupShares, groupShares, meanCoancestryWith } from "../genetics/groupCoancestry.ts"
import { animalsWithChildren, lineOf, noRelative, pairRelationship, type RelationshipRow, relationshipRow, type Relatives, relativesOf } from "../genetics/relationshipRow.ts"
import { figuresOfSums, individualIncrease, trendColumnsOf, yearFigures } from "../genetics/trend.ts"
import { wholeReference } from "../genetics/wholeExtract.ts"
import type { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { resolveCodes, resolveFilters } from "./filters.ts"
import { anneeOf, idOf, nomOf, raceOf, sexeOf } from "./record.ts"
import { select } from "./select.ts"
import { selectionRows } from "./selection.ts"

/**
 * Shares of breeds the Dataset does not hold (breedShares.ts: the small ones) a thread keeps, in
 * animals (10 bytes each): past this many it starts again.
 */
const SHARES_KEPT = 262_144
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

const loadYearOf = (data: DatasetData): number => loadYear(data.provenance.ingestedAt)

/** F by row, from the Dataset's F codes. */
const inbreedingByRow = ({ genetics }: DatasetData) => (row: number): number => inbreedingOf(genetics, row)

interface Breed {
  /** The race as its records spell it (the most frequent spelling), null for the whole extract. */
  readonly race: string | null
  readonly reference: ReferencePopulation | null
  readonly meanInbreeding: number
  /** Its reference population's shares when the Dataset holds them. */
  readonly shares?: GroupShares
}

interface ThreadState {
  /** The rows as a pedigree: the generation order and the links are the Dataset's (shared), not the thread's. */
  readonly pedigree: OrderedPedigree
  readonly breeds: Map<string, Breed>
  /** The shares of the reference population of breeds the Dataset does not hold, and how many animals they cover. */
  readonly shares: Map<string, GroupShares>
  sharesKept: number
  readonly answers: Map<string, StatsGenetique>
  /** Founders and ancestors of a breed's reference population (whatever the years asked). */
  readonly populations: Map<string, StatsGenetique["reference"]>
  /** The rows with children (`animalsWithChildren`), built on the thread's first relationship row: n/8 bytes. */
  parents: Uint32Array | undefined
}

const states = new WeakMap<DatasetData, ThreadState>()

const stateOf = (data: DatasetData): ThreadState => {
  let state = states.get(data)
  if (state === undefined) {
    const pedigree = rowPedigree({ sire: data.links.pere.row, dam: data.links.mere.row }, data.genetics)
    state = { pedigree, breeds: new Map(), shares: new Map(), sharesKept: 0, answers: new Map(), populations: new Map(), parents: undefined }
    states.set(data, state)
  }
  return state
}

/** The race codes a folded race value covers, ascending; the key of a breed is their list. */
const breedKey = (codes: ReadonlyArray<number> | undefined): string => (codes === undefined ? "*" : codes.join(","))

/** A breed the Dataset does not hold, from its rows. */
const breedOfRows = (data: DatasetData, race: string, rows: Uint32Array): Breed => {
  const reference = referencePopulation(data.year, NO_YEAR, rows, loadYearOf(data))
  return { race, reference, meanInbreeding: reference === null ? 0 : meanOf(inbreedingByRow(data), reference.rows) }
}

const breedOf = (data: DatasetData, codes: ReadonlyArray<number> | undefined): Breed => {
  const state = stateOf(data)
  const key = breedKey(codes)
  const known = state.breeds.get(key)
  if (known !== undefined) return known
  let breed: Breed
  // Without codes, the whole extract, whose reference population the Dataset holds.
  if (codes === undefined) {
    breed = { race: null, reference: wholeReference(data.wholeExtract, NO_YEAR), meanInbreeding: data.wholeExtract.meanInbreeding }
  }
  else {
    // The race as its records spell it: the most frequent spelling.
    let most = codes[0]
    for (const code of codes) if (postingsCount(data.race.rows, code) > postingsCount(data.race.rows, most)) most = code
    const race = dictionaryValue(data.race.values, most)
    const held = heldBreed(data.breedShares, codes)
    breed = held === undefined ? breedOfRows(data, race, rowsOfCodes(data.race, codes)) : { race, ...held }
  }
  if (state.breeds.size >= BREEDS_KEPT) state.breeds.clear()
  state.breeds.set(key, breed)
  return breed
}

/** The codes of the breed a row belongs to; undefined without a race. */
const codesOfRow = (data: DatasetData, row: number): ReadonlyArray<number> | undefined => {
  const code = data.race.codes[row]
  return code === 0 ? undefined : codesFoldingAs(data.race, code)
}

/** The shares of `breed`'s reference population (null without one): the Dataset's, or computed and kept by the thread. */
const sharesOf = (data: DatasetData, codes: ReadonlyArray<number>, breed: Breed): GroupShares | null => {
  if (breed.reference === null) return null
  if (breed.shares !== undefined) return breed.shares
  const state = stateOf(data)
  const key = breedKey(codes)
  const known = state.shares.get(key)
  if (known !== undefined) return known
  const shares = groupShares(state.pedigree, inbreedingByRow(data), breed.reference.rows)
  if (shares === null) return null
  if (state.sharesKept + shares.values.length > SHARES_KEPT) {
    state.shares.clear()
    state.sharesKept = 0
  }
  state.shares.set(key, shares)
  state.sharesKept += shares.values.length
  return shares
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

/**
 * A breed one of whose spellings has this many records is made by `prepareBreeds`: seven breeds
 * at 4.45 M records on either extract besides those the Dataset holds; a breed of fewer records
 * costs its few rows on first use.
 */
const PREPARED_RECORDS = 500

/**
 * Every breed that a spelling carried by `PREPARED_RECORDS` records or more starts, made in this thread
 * now (its reference population and mean F, `breedOf`) rather than on its first request. The
 * Dataset holds only the breeds of a large ancestry; a record page of another large breed (Quarter
 * Horse, Appaloosa: 2 000–5 500 records) was 3–10 ms as a worker's first of its breed, against 1 ms
 * after (issue 24 item 6). Answers how many breeds it made (those the Dataset holds are not).
 */
export const prepareBreeds = (data: DatasetData, minRecords: number = PREPARED_RECORDS): number => {
  const { rows } = data.race
  const made = new Set<string>()
  for (let code = 1; code < rows.offsets.length - 1; code++) {
    if (postingsCount(rows, code) < minRecords) continue
    const codes = codesFoldingAs(data.race, code)
    const key = breedKey(codes)
    if (made.has(key) || heldBreed(data.breedShares, codes) !== undefined) continue
    made.add(key)
    breedOf(data, codes)
  }
  return made.size
}

/**
 * A record of the most numerous breed whose reference population the Dataset does not hold (a
 * thread makes it on the breed's first use, `breedOf`), or undefined when every breed is held:
 * what a warm-up asks for so that this path has run before a request of such a breed does.
 */
export const unheldBreedRow = (data: DatasetData): number | undefined => {
  let best: number | undefined
  for (let code = 1; code < data.race.rows.offsets.length - 1; code++) {
    const count = postingsCount(data.race.rows, code)
    if (count === 0 || (best !== undefined && count <= postingsCount(data.race.rows, best))) continue
    if (heldBreed(data.breedShares, codesFoldingAs(data.race, code)) === undefined) best = code
  }
  return best === undefined ? undefined : data.race.rows.rows[data.race.rows.offsets[best]]
}

/** `row`'s relatives over the thread's pedigree (relationshipRow.ts). */
export const relativesOfRow = (data: DatasetData, row: number): Relatives => {
  const state = stateOf(data)
  state.parents ??= animalsWithChildren(data.progeny)
  return relativesOf(state.pedigree, data.progeny, state.parents, row)
}

/** Whether j is no relative of `row` (a(row, j) = 0), without walking down to her relatives (relationshipRow.ts `noRelative`). */
export const noRelativeOf = (data: DatasetData, row: number): (j: number) => boolean => {
  const { pedigree } = stateOf(data)
  const line = new Set(lineOf(pedigree, row))
  return (j) => noRelative(pedigree, line, j)
}

/** a(i, j) of one pair, through their ancestries alone (relationshipRow.ts `pairRelationship`). */
export const pairRelationshipOf = (data: DatasetData, i: number, j: number): number => pairRelationship(stateOf(data).pedigree, i, j)

/** The row of the relationship matrix of the animal whose relatives are `relatives`, a(i, j) for every j. */
export const relationshipRowOf = (data: DatasetData, relatives: Relatives): RelationshipRow =>
  relationshipRow(stateOf(data).pedigree, relatives)

/**
 * The mean coancestry of each of `rows` with the reference population of `row`'s breed (the
 * mare's, for the stallions of her ranking), in their order; null when `row` has no race or its
 * breed no reference population.
 */
export const breedParente = (data: DatasetData, row: number, rows: ArrayLike<number>): Float64Array | null => {
  const codes = codesOfRow(data, row)
  if (codes === undefined) return null
  const shares = sharesOf(data, codes, breedOf(data, codes))
  return shares === null ? null : meanCoancestryWith(stateOf(data).pedigree, shares, rows)
}

/** `GET /v1/equides/{id}/genetique` of `row`. */
export const genetique = (data: DatasetData, row: number): Genetique => {
  const { longestLine } = data.genetics
  const F = inbreedingOf(data.genetics, row)
  const t = equivalentGenerationsOf(data.genetics, row)
  const increase = individualIncrease(F, t)
  const codes = codesOfRow(data, row)
  const breed = codes === undefined ? undefined : breedOf(data, codes)
  const shares = codes === undefined || breed === undefined ? null : sharesOf(data, codes, breed)
  const parente = shares === null
    ? null
    : single(meanCoancestryWith(stateOf(data).pedigree, shares, [row])[0])
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
  // The whole extract's (race null) is the Dataset's; a breed's is computed here.
  const diversity = breed.race === null
    ? diversityHeld(data.wholeDiversity)
    : diversityOf(stateOf(data).pedigree, data.year, NO_YEAR, reference.rows)
  if (diversity === null) return null
  return {
    annee_min: reference.annee_min,
    annee_max: reference.annee_max,
    effectif: reference.rows.length,
    fondateurs_efficaces: diversity.founders ?? 0,
    ancetres_efficaces: diversity.ancestors,
    ancetres_retenus: diversity.retained,
    contribution_expliquee: Math.min(1, diversity.explained),
    intervalle_generation: diversity.interval,
    principaux_ancetres: diversity.major.map(({ contribution, node: row }) => ({
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
  const rows = selectionRows(select(data, filters.success))
  const breed = breedOf(data, codes)
  const answer: StatsGenetique = {
    race: breed.race,
    // Every row (no breed, no year asked): the sums the Dataset holds.
    annees: rows === undefined ? figuresOfSums(data.wholeExtract.years) : yearFigures(trendColumnsOf(data.genetics), data.year, NO_YEAR, rows),
    reference: state.populations.get(breedKey(codes)) ?? populationOf(data, breed)
  }
  if (state.populations.size >= BREEDS_KEPT) state.populations.clear()
  state.populations.set(breedKey(codes), answer.reference)
  if (state.answers.size >= ANSWERS_KEPT) state.answers.clear()
  state.answers.set(key, answer)
  return Result.succeed(answer)
}
