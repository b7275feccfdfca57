/**
 * Inbreeding by birth year and the realised effective size (design §6), after Gutiérrez, Cervantes,
 * Molina, Valera & Goyache 2008 ("Individual increase in inbreeding allows estimating effective sizes
 * from pedigrees", Genet. Sel. Evol. 40:359–378) and Gutiérrez, Cervantes & Goyache 2009 (J. Anim.
 * Breed. Genet. 126:327–332):
 * - ΔF_i = 1 − (1 − F_i)^(1/(t_i − 1)), defined only when t_i > 1;
 * - Ne of a group = 1 / (2 · mean ΔF_i) over its members with t_i > 1; null when that mean is 0 or
 *   undefined.
 */

import type { GeneticColumns as DatasetGenetics } from "./columns.ts"

/** ΔF_i from F_i and 1/(t_i − 1). */
const increaseOver = (inbreeding: number, exponent: number): number => 1 - Math.pow(1 - inbreeding, exponent)

/** ΔF_i, or null when t ≤ 1. */
export const individualIncrease = (inbreeding: number, equivalentGenerations: number): number | null =>
  equivalentGenerations > 1 ? increaseOver(inbreeding, 1 / (equivalentGenerations - 1)) : null

/** Ne from the sum of ΔF_i over `count` members with t > 1. */
export const effectiveSize = (sumIncrease: number, count: number): number | null =>
  count === 0 || sumIncrease <= 0 ? null : 1 / ((2 * sumIncrease) / count)

export interface YearFigures {
  readonly annee: number
  readonly effectif: number
  readonly consanguinite_moyenne: number
  /** F > 0. */
  readonly consanguins: number
  /** F ≥ 1/16. */
  readonly au_moins_6_25: number
  /** F ≥ 1/8. */
  readonly au_moins_12_5: number
  readonly generations_equivalentes_moyennes: number
  /** Mean ΔF_i over the members with t > 1; null when none. */
  readonly accroissement_moyen: number | null
  readonly taille_efficace: number | null
}

/** Per-record values the year figures read, by row. */
export interface GeneticColumns {
  /** F by row; by F code when `inbreedingCode` is given (the Dataset's columns, columns.ts). */
  readonly inbreeding: ArrayLike<number>
  /** The row's F code into `inbreeding`. */
  readonly inbreedingCode?: ArrayLike<number> | undefined
  /** t by row; by depth code when `depth` is given (the Dataset's columns, columns.ts). */
  readonly equivalentGenerations: ArrayLike<number>
  /** The row's depth code into `equivalentGenerations`. */
  readonly depth?: ArrayLike<number> | undefined
}

/** Where each sum a year's figures are made of sits among the year's `SUMS` slots. */
const COUNT = 0
const F = 1
const INBRED = 2
const SIXTEENTH = 3
const EIGHTH = 4
const T = 5
const DEEP = 6
const INCREASE = 7
const SUMS = 8

/** The Dataset's genetics columns the year figures read. */
export type TrendGenetics = Pick<DatasetGenetics, "inbreedingValues" | "inbreedingCode" | "depthEquivalent" | "depth">

/** The Dataset's genetics columns as the year figures read them. */
export const trendColumnsOf = (genetics: TrendGenetics): GeneticColumns => ({
  inbreeding: genetics.inbreedingValues,
  inbreedingCode: genetics.inbreedingCode,
  equivalentGenerations: genetics.depthEquivalent,
  depth: genetics.depth
})

/** What the year figures are made of: `SUMS` slots a year, by year from `first` (none when `sums` is empty). */
export interface YearSums {
  readonly first: number
  readonly sums: Float64Array
}

/** The figures of every birth year of `rows` (ascending; every row when `rows` is undefined), rows without a year (`noYear`) left out. */
export const yearFigures = (columns: GeneticColumns, year: Int32Array, noYear: number, rows?: ArrayLike<number>): Array<YearFigures> =>
  figuresOfSums(yearSums(columns, year, noYear, rows))

/**
 * The sums of every birth year of `rows` (every row when undefined), rows without a year left out.
 * Each year's sums are added up in the order of `rows`; one typed array holds them all, by year
 * from the earliest.
 */
export const yearSums = (columns: GeneticColumns, year: Int32Array, noYear: number, rows?: ArrayLike<number>): YearSums => {
  const size = rows === undefined ? year.length : rows.length
  let first = 0
  let last = -1
  for (let k = 0; k < size; k++) {
    const y = year[rows === undefined ? k : rows[k]]
    if (y === noYear) continue
    if (last < first) first = last = y
    else if (y < first) first = y
    else if (y > last) last = y
  }
  const sums = new Float64Array((last - first + 1) * SUMS)
  const { depth, equivalentGenerations, inbreeding, inbreedingCode } = columns
  // 1/(t − 1) once per depth code (a few thousand) instead of once per row.
  const exponents = new Float64Array(equivalentGenerations.length)
  for (let code = 0; code < exponents.length; code++) {
    const t = equivalentGenerations[code]
    if (t > 1) exponents[code] = 1 / (t - 1)
  }
  for (let k = 0; k < size; k++) {
    const row = rows === undefined ? k : rows[k]
    const y = year[row]
    if (y === noYear) continue
    const at = (y - first) * SUMS
    const f = inbreeding[inbreedingCode === undefined ? row : inbreedingCode[row]]
    const code = depth === undefined ? row : depth[row]
    const t = equivalentGenerations[code]
    sums[at + COUNT]++
    sums[at + F] += f
    if (f > 0) sums[at + INBRED]++
    if (f >= 1 / 16) sums[at + SIXTEENTH]++
    if (f >= 1 / 8) sums[at + EIGHTH]++
    sums[at + T] += t
    if (t > 1) {
      sums[at + DEEP]++
      // 1 − 1^x is 0: no power to take for the animals without inbreeding, half of a registry.
      if (f !== 0) sums[at + INCREASE] += increaseOver(f, exponents[code])
    }
  }
  return { first, sums }
}

/** The figures of each year that has a record, ascending. */
export const figuresOfSums = ({ first, sums }: YearSums): Array<YearFigures> => {
  const figures: Array<YearFigures> = []
  for (let at = 0; at < sums.length; at += SUMS) {
    const count = sums[at + COUNT]
    if (count === 0) continue
    const deep = sums[at + DEEP]
    const increase = sums[at + INCREASE]
    figures.push({
      annee: first + at / SUMS,
      effectif: count,
      consanguinite_moyenne: sums[at + F] / count,
      consanguins: sums[at + INBRED],
      au_moins_6_25: sums[at + SIXTEENTH],
      au_moins_12_5: sums[at + EIGHTH],
      generations_equivalentes_moyennes: sums[at + T] / count,
      accroissement_moyen: deep === 0 ? null : increase / deep,
      taille_efficace: effectiveSize(increase, deep)
    })
  }
  return figures
}
