/**
 * GET /v1/equides/{id}/descendance/statistiques: one parent's direct offspring counted by year,
 * sex and breed, its grand-offspring, and per index code the offspring's values (mean, median,
 * maximum, best five), read from the Dataset's per-code columns (`progenyColumns.ts`).
 */
import { wordsFor } from "../dataset/bits.ts"
import { dictionarySize, dictionaryValue, postingsOf } from "../dataset/columns.ts"
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { performancesAt } from "../dataset/performances.ts"
import { entryStart } from "../dataset/progenyColumns.ts"
import type { IndiceDescendance, MeilleurProduit, StatistiquesDescendance } from "../schemas/progeny.ts"
import { parentReference } from "./descendance.ts"
import { retainedIndex } from "./indexValue.ts"
import { memoPer } from "./memo.ts"
import { entryRow, entryValue, groupOf, groupSummary } from "./progenyColumns.ts"
import { identityOf } from "./record.ts"
import { topByFrequency } from "./referential.ts"

/** Offspring listed per code. */
export const MEILLEURS = 5

const scratchOf = memoPer<DatasetData, "rows", Uint32Array>()

/**
 * Rows counted once, marked in a bitset kept per Dataset (and thread) and left clear again: a
 * sire's sons may have thousands of foals each, and a set of them would cost more. Each count below
 * walks its rows twice (to count, then to clear). Functions of the module, not a walk passed as a
 * closure made by each request: V8's optimised code inlined the request's closures and held them
 * weakly, so the first full collection after the warm-up threw that code away ("embedded weak
 * objects cleared", issue 24 item 6).
 */
const scratch = (data: DatasetData): Uint32Array => scratchOf(data, "rows", () => new Uint32Array(wordsFor(data.size)))

/** 1 when `row` was not yet marked in `bits` (and marks it), else 0. */
const markNew = (bits: Uint32Array, row: number): number => {
  const mask = 1 << (row & 31)
  if ((bits[row >>> 5] & mask) !== 0) return 0
  bits[row >>> 5] |= mask
  return 1
}

/** The distinct offspring of `produits` (the grand-offspring). */
const grandOffspring = (data: DatasetData, produits: Uint32Array): number => {
  const bits = scratch(data)
  const { offsets, rows } = data.progeny
  let count = 0
  for (let i = 0; i < produits.length; i++) {
    for (let j = offsets[produits[i]]; j < offsets[produits[i] + 1]; j++) count += markNew(bits, rows[j])
  }
  for (let i = 0; i < produits.length; i++) {
    for (let j = offsets[produits[i]]; j < offsets[produits[i] + 1]; j++) bits[rows[j] >>> 5] = 0
  }
  return count
}

/** The distinct offspring holding a value in any of the `valued` groups. */
const valuedOffspring = (data: DatasetData, valued: ReadonlyArray<number>): number => {
  const bits = scratch(data)
  const columns = data.progenyColumns
  let count = 0
  for (const g of valued) {
    for (let i = entryStart(columns, g); i < entryStart(columns, g + 1); i++) count += markNew(bits, entryRow(data, g, i))
  }
  for (const g of valued) {
    for (let i = entryStart(columns, g); i < entryStart(columns, g + 1); i++) bits[entryRow(data, g, i) >>> 5] = 0
  }
  return count
}

const meilleur = (data: DatasetData, row: number, valeur: number, code: string): MeilleurProduit => {
  const annee = retainedIndex(performancesAt(data.performances, row), code)?.index.annee
  return { ...identityOf(data, row), valeur, ...(annee === undefined ? {} : { annee }) }
}

export const statistiquesDescendance = (data: DatasetData, row: number): StatistiquesDescendance => {
  const produits = postingsOf(data.progeny, row)
  const parAnnee: Array<{ annee: number; nombre: number }> = []
  let sansAnnee = 0
  const sexes = new Uint32Array(dictionarySize(data.sexe.values))
  const races = new Uint32Array(dictionarySize(data.race.values))
  // The progeny index lists offspring by birth year ascending, those without one last.
  for (let i = 0; i < produits.length; i++) {
    const child = produits[i]
    const year = data.year[child]
    if (year === NO_YEAR) sansAnnee++
    else if (parAnnee.length > 0 && parAnnee[parAnnee.length - 1].annee === year) parAnnee[parAnnee.length - 1].nombre++
    else parAnnee.push({ annee: year, nombre: 1 })
    sexes[data.sexe.codes[child]]++
    races[data.race.codes[child]]++
  }

  // Every code's columns are the Dataset's: a parent's group in each is one binary search.
  const columns = data.progenyColumns
  const indices: Array<IndiceDescendance> = []
  // The groups found, to count the offspring holding any value once.
  const valued: Array<number> = []
  for (let code = 1; code < dictionarySize(data.indice.values); code++) {
    const g = groupOf(data, code, row)
    if (g < 0) continue
    valued.push(g)
    const label = dictionaryValue(data.indice.values, code)
    const discipline = columns.disciplines[code]
    const from = entryStart(columns, g)
    const count = entryStart(columns, g + 1) - from
    const meilleurs: Array<MeilleurProduit> = []
    for (let i = from; i < from + Math.min(count, MEILLEURS); i++) {
      meilleurs.push(meilleur(data, entryRow(data, g, i), entryValue(data, code, i), label))
    }
    const { moyenne, mediane, maximum } = groupSummary(data, code, g)
    indices.push({
      code: label,
      ...(discipline === 0 ? {} : { discipline: dictionaryValue(data.discipline.values, discipline) }),
      produits: count,
      moyenne,
      mediane,
      maximum,
      meilleurs
    })
  }
  indices.sort((a, b) => b.produits - a.produits || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))

  return {
    parent: parentReference(data, row),
    produits: produits.length,
    petits_produits: grandOffspring(data, produits),
    par_annee: parAnnee,
    sans_annee: sansAnnee,
    // Every value counted, ordered as /v1/stats/repartition orders tranches.
    par_sexe: topByFrequency(data.sexe.values, sexes, sexes.length),
    par_race: topByFrequency(data.race.values, races, races.length),
    avec_indices: valuedOffspring(data, valued),
    indices
  }
}
