/**
 * Evaluates resolved filters to a row selection, at a cost that follows the answer (design 2.1):
 * - every filter can filter rows at a few operations each (its column, its disciplines, its index
 *   codes, or its name's tokens) and has a way into a bitset (a bitset the Dataset keeps, cumulative years,
 *   or its postings' bits), each with a cost estimate (see `terms.ts`);
 * - a filter with few rows drives: its rows are listed and the others filter them;
 * - else the filters are ANDed as bitsets, word by word, and the count is a popcount: a pass over
 *   size / 32 words per filter whatever the rows they hold; a lone filter the Dataset keeps as a
 *   bitset (a frequent code, a frequent name prefix, the performances) is that bitset, no copy.
 * No filter → the whole set, never materialised (`all`).
 */
import { bitRows, countBits, hasBit, wordsFor } from "../dataset/bits.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { isUnfiltered, type ResolvedFilters } from "./filters.ts"
import { allowedTable, type Term, termsOf } from "./terms.ts"

export type RowTest = (row: number) => boolean

/**
 * The rows kept by the filters, in one of three forms:
 * - every row: `all` true (never materialised);
 * - listed: `rows` ascending (file order), possibly a zero-copy view of a Dataset postings;
 * - a bitset: `bits`, one bit per row (possibly a bitset the Dataset keeps: never write into it).
 * `count` is exact in every form.
 */
export interface Selection {
  readonly count: number
  readonly all: boolean
  readonly rows: Uint32Array | undefined
  readonly bits: Uint32Array | undefined
  /** An O(1) membership test without building anything (a bitset's). */
  readonly test: RowTest | undefined
  /** Year codes the selected rows may carry (1 = allowed, index = code), when a year filter is set. */
  readonly yearCodes: Uint8Array | undefined
}

export const allRows = (data: DatasetData): Selection => ({
  count: data.size,
  all: true,
  rows: undefined,
  bits: undefined,
  test: undefined,
  yearCodes: undefined
})

/** A selection over explicit rows (ascending, distinct): for tests and callers holding rows. */
export const selectionOfRows = (rows: Uint32Array): Selection => ({
  count: rows.length,
  all: false,
  rows,
  bits: undefined,
  test: undefined,
  yearCodes: undefined
})

const bitmaps = new WeakMap<Selection, Uint32Array>()
const listed = new WeakMap<Selection, Uint32Array>()

/** Membership test of a selection: always true, its test, or a bitset built once per selection. */
export const membership = (data: DatasetData, selection: Selection): RowTest => {
  if (selection.all) return () => true
  if (selection.test !== undefined) return selection.test
  let bits = bitmaps.get(selection)
  if (bits === undefined) {
    bits = new Uint32Array(wordsFor(data.size))
    const rows = selection.rows ?? new Uint32Array(0)
    for (let i = 0; i < rows.length; i++) bits[rows[i] >>> 5] |= 1 << (rows[i] & 31)
    bitmaps.set(selection, bits)
  }
  const b = bits
  return (row) => hasBit(b, row)
}

/**
 * The selected rows ascending: `rows` when listed, the bitset's rows (listed once per selection,
 * O(size / 32 + count)), undefined for the whole Dataset (rows 0..size-1).
 */
export const selectionRows = (selection: Selection): Uint32Array | undefined => {
  if (selection.all) return undefined
  if (selection.rows !== undefined) return selection.rows
  let rows = listed.get(selection)
  if (rows === undefined) {
    rows = new Uint32Array(selection.count)
    if (selection.bits !== undefined) bitRows(selection.bits, rows)
    listed.set(selection, rows)
  }
  return rows
}

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
  const st: SelectStats = stats ?? { driver: "", strategy: "", visited: 0 }
  st.driver = ""
  st.strategy = ""
  st.visited = 0
  if (isUnfiltered(filters)) {
    st.strategy = "all"
    return allRows(data)
  }
  const size = data.size
  const terms = termsOf(data, filters).sort((a, b) => a.estimate - b.estimate)
  const yearCodes = filters.annee === undefined ? undefined : allowedTable(filters.annee, data.annee.values.length)
  const listedSelection = (rows: Uint32Array): Selection => ({
    count: rows.length,
    all: false,
    rows,
    bits: undefined,
    test: undefined,
    yearCodes
  })
  const bitsSelection = (count: number, bits: Uint32Array): Selection => ({
    count,
    all: false,
    rows: undefined,
    bits,
    test: (row) => hasBit(bits, row),
    yearCodes
  })

  const driver = terms[0]
  st.driver = driver.name
  if (driver.estimate === 0) {
    st.strategy = "empty"
    return listedSelection(new Uint32Array(0))
  }
  if (terms.length === 1 && driver.stored !== undefined && driver.exact) {
    st.strategy = "stored"
    return bitsSelection(driver.estimate, driver.stored)
  }
  const words = wordsFor(size)
  let filterCost = 0
  for (let i = 1; i < terms.length; i++) filterCost += terms[i].filterCost
  const listCost = driver.view === undefined ? driver.rowsCost : driver.estimate
  const driveCost = listCost + driver.estimate * filterCost
  let bitsCost = words
  for (const term of terms) bitsCost += term.bitsCost
  if (driveCost > bitsCost) {
    st.strategy = "bits"
    const { count, bits } = andAll(size, terms, st)
    return bitsSelection(count, bits)
  }
  // The driver listed, the others filtering its rows, rarest first (never writing into a Dataset view).
  st.strategy = terms.length === 1 ? "list" : "drive"
  st.visited = listCost
  const driverRows = driver.view ?? driver.rows()
  if (terms.length === 1) return listedSelection(driverRows)
  const rows = driverRows.slice()
  let n = rows.length
  for (let i = 1; i < terms.length && n > 0; i++) {
    st.visited += n * terms[i].filterCost
    n = terms[i].filter(rows, n)
  }
  return listedSelection(rows.subarray(0, n))
}
