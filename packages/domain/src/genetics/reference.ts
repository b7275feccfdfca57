/**
 * The reference population of a breed (design §6): its records born in the five birth years
 * Y−4..Y, where Y is the breed's most recent birth year not after the year of loading. Without a
 * breed, the whole extract, same rule.
 */

/** The year of loading of the design: that of `ingere_le` (fixed by the file, not by the clock). */
export const loadYear = (ingestedAt: string): number => Number(ingestedAt.slice(0, 4))

export interface ReferencePopulation {
  readonly annee_min: number
  readonly annee_max: number
  /** Rows, ascending. */
  readonly rows: Int32Array
}

/** The reference population among `rows` (the breed's); null when none has a year ≤ `loadYear`. */
export const referencePopulation = (
  year: Int32Array,
  noYear: number,
  rows: ArrayLike<number>,
  loadYear: number
): ReferencePopulation | null => {
  let last = noYear
  for (let k = 0; k < rows.length; k++) {
    const y = year[rows[k]]
    if (y !== noYear && y <= loadYear && (last === noYear || y > last)) last = y
  }
  if (last === noYear) return null
  const members: Array<number> = []
  for (let k = 0; k < rows.length; k++) {
    const y = year[rows[k]]
    if (y !== noYear && y >= last - 4 && y <= last) members.push(rows[k])
  }
  return { annee_min: last - 4, annee_max: last, rows: Int32Array.from(members).sort() }
}
