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

/** The birth years a reference population spans, its last one included (Y−4..Y). */
const REFERENCE_YEARS = 5

/** The reference population whose last birth year is `lastYear`, its `rows` ascending (as a Dataset holds one). */
export const referenceOfLastYear = (lastYear: number, rows: Int32Array): ReferencePopulation => ({
  annee_min: lastYear - (REFERENCE_YEARS - 1),
  annee_max: lastYear,
  rows
})

/**
 * The reference population among `rows` (the breed's; every row when undefined); null when none has
 * a year ≤ `loadYear`.
 */
export const referencePopulation = (
  year: Int32Array,
  noYear: number,
  rows: ArrayLike<number> | undefined,
  loadYear: number
): ReferencePopulation | null => {
  const size = rows === undefined ? year.length : rows.length
  let last = noYear
  for (let k = 0; k < size; k++) {
    const y = year[rows === undefined ? k : rows[k]]
    if (y !== noYear && y <= loadYear && (last === noYear || y > last)) last = y
  }
  if (last === noYear) return null
  // One pass collects the members into an array as long as the rows read, trimmed after (a pass
  // counting them first read every year once more: 23 against 15 ms for the whole extract at
  // 4.45 M records). The conditions are written out: through a closure over `last`, every read of
  // it was slow.
  const first = last - (REFERENCE_YEARS - 1)
  const final = last
  const collected = new Int32Array(size)
  let count = 0
  let ascending = true
  for (let k = 0; k < size; k++) {
    const row = rows === undefined ? k : rows[k]
    const y = year[row]
    if (y === noYear || y < first || y > final) continue
    if (count > 0 && row < collected[count - 1]) ascending = false
    collected[count++] = row
  }
  const members = collected.slice(0, count)
  return referenceOfLastYear(last, ascending ? members : members.sort())
}
