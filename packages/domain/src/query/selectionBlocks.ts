/**
 * A selection's rows in file order, a block at a time (issue 30: an export's first records are
 * written before the whole selection is known). The planner's terms (`terms.ts`), rarest first as
 * `select` orders them, each block costing about `BLOCK_UNITS` (the units of `costs.ts`, about a
 * nanosecond each at 4.45 M rows):
 * - the rarest term's rows listed once when the Dataset keeps them (a view) or listing them costs
 *   little (`LIST_UNITS`), then taken a block at a time, the other terms filtering each block;
 * - else the rows `a..b` of the file, every term filtering them (a name prefix of a million rows
 *   is scanned, not listed at once on the caller's thread).
 * The blocks' rows, end to end, are `selectionRows(select(…))`: `selectionBlocks.test.ts`.
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import { isUnfiltered, type ResolvedFilters } from "./filters.ts"
import { type Term, termsOf } from "./terms.ts"

/** The work of one block, in the units of `costs.ts`. */
export const BLOCK_UNITS = 1 << 18
/** The most the rarest term's rows may cost to list at once. */
export const LIST_UNITS = 1 << 20

export interface RowBlocks {
  /**
   * The next block's rows, ascending and after every row given before (possibly none: a block of
   * the file no row of which passed), in a buffer the next call reuses; `undefined` once every
   * row was given.
   */
  readonly next: () => Uint32Array | undefined
}

const filterCost = (terms: ReadonlyArray<Term>): number => terms.reduce((sum, term) => sum + term.filterCost, 0)

const filtered = (block: Uint32Array, n: number, terms: ReadonlyArray<Term>): Uint32Array => {
  for (let i = 0; i < terms.length && n > 0; i++) n = terms[i].filter(block, n)
  return block.subarray(0, n)
}

/** Rows `0..size` in blocks of `blockRows`, each filtered by `terms`. */
const scanned = (size: number, terms: ReadonlyArray<Term>, blockRows: number): RowBlocks => {
  const block = new Uint32Array(Math.min(blockRows, size))
  let from = 0
  return {
    next: () => {
      if (from >= size) return undefined
      const n = Math.min(block.length, size - from)
      for (let i = 0; i < n; i++) block[i] = from + i
      from += n
      return filtered(block, n, terms)
    }
  }
}

/** `rows` (ascending) in blocks of `blockRows`, each filtered by `terms`. */
const listed = (rows: Uint32Array, terms: ReadonlyArray<Term>, blockRows: number): RowBlocks => {
  const block = new Uint32Array(Math.min(blockRows, rows.length))
  let from = 0
  return {
    next: () => {
      if (from >= rows.length) return undefined
      const n = Math.min(block.length, rows.length - from)
      // Copied: the rows may be a view into the Dataset, which the filters must not write.
      block.set(rows.subarray(from, from + n))
      from += n
      return filtered(block, n, terms)
    }
  }
}

/**
 * The rows `filters` keep, in file order, a block at a time (`blockUnits` of work each at most, one
 * row at least); the rarest term's rows listed at once when that costs `listUnits` at most.
 */
export const selectionBlocks = (
  data: DatasetData,
  filters: ResolvedFilters,
  blockUnits: number = BLOCK_UNITS,
  listUnits: number = LIST_UNITS
): RowBlocks => {
  if (isUnfiltered(filters)) return scanned(data.size, [], blockUnits)
  const terms = termsOf(data, filters).sort((a, b) => a.estimate - b.estimate)
  const [driver, ...others] = terms
  if (driver.estimate === 0) return { next: () => undefined }
  const perRow = (rest: ReadonlyArray<Term>): number => Math.max(1, Math.floor(blockUnits / Math.max(1, filterCost(rest))))
  if (driver.view !== undefined) return listed(driver.view, others, perRow(others))
  if (driver.rowsCost <= listUnits) return listed(driver.rows(), others, perRow(others))
  return scanned(data.size, terms, perRow(terms))
}
