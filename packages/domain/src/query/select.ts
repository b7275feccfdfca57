/**
 * The filter planner: evaluates resolved filters to a selection (`selection.ts`), at a cost that follows the answer (design 2.1):
 * - every filter can filter rows at a few operations each (its column, its disciplines, its index
 *   codes, or its name's tokens) and has a way into a bitset (a bitset the Dataset keeps, cumulative years,
 *   or its postings' bits), each with a cost estimate (see `terms.ts`);
 * - a filter with few rows drives: its rows are listed and the others filter them;
 * - else the filters are ANDed as bitsets, word by word, and the count is a popcount: a pass over
 *   size / 32 words per filter whatever the rows they hold; a lone filter the Dataset keeps as a
 *   bitset (a frequent code, a frequent name prefix, the performances) is that bitset, no copy.
 * No filter → the whole set, never materialised (`allRows`).
 */
import { countBits, wordsFor } from "../dataset/bits.ts"
import { dictionarySize } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { isUnfiltered, type ResolvedFilters } from "./filters.ts"
import { allRows, type Selection, selectionOfBits, selectionOfRows } from "./selection.ts"
import { allowedTable, type Term, termsOf } from "./terms.ts"

/** Work of the last `select` call: for tests (cost bounds) and metrics. */
export interface SelectStats {
  driver: string
  strategy: string
  /** The work done, in the cost units of `costs.ts` (a word of a bitset pass is 1). */
  visited: number
}

/** The filters ANDed into a new bitset, its rows counted. */
const andAll = (size: number, terms: ReadonlyArray<Term>, stats: SelectStats): { readonly count: number; readonly bits: Uint32Array } => {
  const acc = new Uint32Array(wordsFor(size))
  terms.forEach((term, i) => {
    stats.visited += term.bitsCost
    term.andInto(acc, i === 0)
  })
  stats.visited += acc.length
  return { count: countBits(acc), bits: acc }
}

/**
 * The rows kept by the filters with their count; `stats`, when given, is filled with the driver
 * and strategy chosen and the work done.
 */
export const select = (data: DatasetData, filters: ResolvedFilters, stats?: SelectStats): Selection => {
  const work: SelectStats = stats ?? { driver: "", strategy: "", visited: 0 }
  work.driver = ""
  work.strategy = ""
  work.visited = 0
  if (isUnfiltered(filters)) {
    work.strategy = "all"
    return allRows(data)
  }
  const size = data.size
  const terms = termsOf(data, filters).sort((a, b) => a.estimate - b.estimate)
  const yearCodes = filters.annee === undefined ? undefined : allowedTable(filters.annee, dictionarySize(data.annee.values))
  const driver = terms[0]
  work.driver = driver.name
  if (driver.estimate === 0) {
    work.strategy = "empty"
    return selectionOfRows(new Uint32Array(0), yearCodes)
  }
  if (terms.length === 1 && driver.stored !== undefined && driver.exact) {
    work.strategy = "stored"
    return selectionOfBits(driver.estimate, driver.stored, yearCodes)
  }
  const words = wordsFor(size)
  let filterCost = 0
  for (let i = 1; i < terms.length; i++) filterCost += terms[i].filterCost
  const listCost = driver.view === undefined ? driver.rowsCost : driver.estimate
  const driveCost = listCost + driver.estimate * filterCost
  let bitsCost = words
  for (const term of terms) bitsCost += term.bitsCost
  if (driveCost > bitsCost) {
    work.strategy = "bits"
    const { count, bits } = andAll(size, terms, work)
    return selectionOfBits(count, bits, yearCodes)
  }
  // The driver listed, the others filtering its rows, rarest first (never writing into a Dataset view).
  work.strategy = terms.length === 1 ? "list" : "drive"
  work.visited = listCost
  const driverRows = driver.view ?? driver.rows()
  if (terms.length === 1) return selectionOfRows(driverRows, yearCodes)
  const rows = driverRows.slice()
  let n = rows.length
  for (let i = 1; i < terms.length && n > 0; i++) {
    work.visited += n * terms[i].filterCost
    n = terms[i].filter(rows, n)
  }
  return selectionOfRows(rows.subarray(0, n), yearCodes)
}
