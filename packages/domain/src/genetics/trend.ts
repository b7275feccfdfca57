/**
 * Inbreeding by birth year and the realised effective size (design §6), after Gutiérrez, Cervantes,
 * Molina, Valera & Goyache 2008 ("Individual increase in inbreeding allows estimating effective sizes
 * from pedigrees", Genet. Sel. Evol. 40:359–378) and Gutiérrez, Cervantes & Goyache 2009 (J. Anim.
 * Breed. Genet. 126:327–332):
 * - ΔF_i = 1 − (1 − F_i)^(1/(t_i − 1)), defined only when t_i > 1;
 * - Ne of a group = 1 / (2 · mean ΔF_i) over its members with t_i > 1; null when that mean is 0 or
 *   undefined.
 */

/** ΔF_i, or null when t ≤ 1. */
export const individualIncrease = (inbreeding: number, equivalentGenerations: number): number | null =>
  equivalentGenerations > 1 ? 1 - Math.pow(1 - inbreeding, 1 / (equivalentGenerations - 1)) : null

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
  readonly inbreeding: ArrayLike<number>
  readonly equivalentGenerations: ArrayLike<number>
}

/**
 * The figures of every birth year of `rows` (ascending); rows without a year (`noYear`) are left
 * out.
 */
export const yearFigures = (
  columns: GeneticColumns,
  year: Int32Array,
  noYear: number,
  rows: ArrayLike<number>
): Array<YearFigures> => {
  interface Sums {
    count: number
    f: number
    inbred: number
    sixteenth: number
    eighth: number
    t: number
    deep: number
    increase: number
  }
  const byYear = new Map<number, Sums>()
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]
    const y = year[row]
    if (y === noYear) continue
    let sums = byYear.get(y)
    if (sums === undefined) {
      sums = { count: 0, f: 0, inbred: 0, sixteenth: 0, eighth: 0, t: 0, deep: 0, increase: 0 }
      byYear.set(y, sums)
    }
    const f = columns.inbreeding[row]
    const t = columns.equivalentGenerations[row]
    sums.count++
    sums.f += f
    if (f > 0) sums.inbred++
    if (f >= 1 / 16) sums.sixteenth++
    if (f >= 1 / 8) sums.eighth++
    sums.t += t
    const increase = individualIncrease(f, t)
    if (increase !== null) {
      sums.deep++
      sums.increase += increase
    }
  }
  return [...byYear.entries()].sort(([a], [b]) => a - b).map(([annee, s]) => ({
    annee,
    effectif: s.count,
    consanguinite_moyenne: s.f / s.count,
    consanguins: s.inbred,
    au_moins_6_25: s.sixteenth,
    au_moins_12_5: s.eighth,
    generations_equivalentes_moyennes: s.t / s.count,
    accroissement_moyen: s.deep === 0 ? null : s.increase / s.deep,
    taille_efficace: effectiveSize(s.increase, s.deep)
  }))
}
