/**
 * Per-value counts of a selection along one dimension, by the cheapest of (c = selected rows,
 * n = all rows, w = n / 32 words; costs in the units of `costs.ts`):
 * - listed rows: one read per row, O(c);
 * - a bitset, its set rows: O(w + c);
 * - a bitset, the rows it leaves out, subtracted from the dimension's totals: O(w + n − c);
 * - a bitset, the dimension's frequent codes by a popcount of their bitset ANDed with it
 *   (w each), the other codes' rows tested one by one (every code's, for disciplines);
 * - a bitset, birth years by popcounts against the cumulative year bitsets (w per year the
 *   selection may hold).
 * A breakdown of a large selection thus costs at most about n / 2 row reads.
 */
import { countAnd } from "../dataset/bits.ts"
import { type DenseCodes, dictionarySize, type Dimension, postingsCount, postingsOf, type Postings } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { postingsCounts } from "./referential.ts"
import type { Selection } from "./selection.ts"
import { ASCENDING_BIT, BIT_ROW, ROW_FILTER } from "./costs.ts"

/** Which way `countSelection` counted and the work it did: for tests (cost bounds). */
export interface CountStats {
  strategy: string
  /** In the cost units of `costs.ts` (a word of a bitset pass is 1). */
  visited: number
}

/** Per-row values of a dimension: one code per row, or a list per row (disciplines). */
export type Values =
  | {
    readonly kind: "column"
    readonly dim: Dimension
    /** Cumulative bitsets of its codes (`DatasetData.yearsUpTo`), when kept (birth years). */
    readonly upTo?: Uint32Array
  }
  | { readonly kind: "lists"; readonly perRow: Postings; readonly totals: Postings; readonly valueCount: number }

const valueCount = (values: Values): number => (values.kind === "column" ? dictionarySize(values.dim.values) : values.valueCount)

/** Adds to `counts` the values of every row set in `bits` (or, with `unset`, every row below `size` not set). */
export const countBitRows = (values: Values, bits: Uint32Array, size: number, unset: boolean, counts: Uint32Array): void => {
  // One loop for both kinds (no call per row: this is the hot loop of a large breakdown).
  const column = values.kind === "column" ? values.dim.codes : undefined
  const { offsets, rows: perRow } = values.kind === "lists" ? values.perRow : { offsets: new Uint32Array(0), rows: new Uint32Array(0) }
  for (let w = 0; w < bits.length; w++) {
    let word = unset ? ~bits[w] : bits[w]
    if (unset && w === bits.length - 1 && (size & 31) !== 0) word &= 0xffffffff >>> (32 - (size & 31))
    while (word !== 0) {
      const low = word & -word
      const row = (w << 5) | (31 - Math.clz32(low))
      if (column !== undefined) counts[column[row]]++
      else for (let j = offsets[row]; j < offsets[row + 1]; j++) counts[perRow[j]]++
      word ^= low
    }
  }
}

const NO_DENSE: DenseCodes = { codes: new Uint32Array(0), bits: new Uint32Array(0) }

/** Rows per code, and the bitsets of the frequent ones. */
const codesOf = (values: Values): { readonly rows: Postings; readonly dense: DenseCodes } =>
  values.kind === "column" ? values.dim : { rows: values.totals, dense: NO_DENSE }

/** Counts of the frequent codes by popcounts, of the others by testing their rows. */
const countByCodes = (values: Values, bits: Uint32Array, counts: Uint32Array): Uint32Array => {
  const words = bits.length
  const { rows: postings, dense: { codes, bits: dense } } = codesOf(values)
  let d = 0
  for (let code = 0; code < counts.length; code++) {
    if (d < codes.length && codes[d] === code) {
      counts[code] = countAnd(bits, dense.subarray(d * words, (d + 1) * words))
      d++
      continue
    }
    const rows = postingsOf(postings, code)
    let n = 0
    for (let i = 0; i < rows.length; i++) n += (bits[rows[i] >>> 5] >>> (rows[i] & 31)) & 1
    counts[code] = n
  }
  return counts
}

/** `[lo, hi]`: the codes a selection may carry (all but 0 when it says none), for cumulative counts. */
const allowedRange = (allowed: Uint8Array | undefined, codeCount: number): readonly [number, number] | undefined => {
  if (allowed === undefined) return codeCount > 1 ? [1, codeCount - 1] : undefined
  let lo = 0
  let hi = 0
  for (let code = 1; code < codeCount; code++) {
    if (allowed[code] === 1) {
      if (lo === 0) lo = code
      hi = code
    }
  }
  return lo === 0 ? undefined : [lo, hi]
}

/**
 * Counts of the codes `[lo, hi]` (the others stay 0: a selection restricted to them, or rows of
 * code 0 counted apart) by popcounts against cumulative bitsets: count(code ≤ k) minus
 * count(code ≤ k − 1), one pass per code.
 */
const countByRanges = (upTo: Uint32Array, bits: Uint32Array, [lo, hi]: readonly [number, number], counts: Uint32Array): Uint32Array => {
  const words = bits.length
  let below = lo === 1 ? 0 : countAnd(bits, upTo.subarray((lo - 2) * words, (lo - 1) * words))
  for (let code = lo; code <= hi; code++) {
    const upToCode = countAnd(bits, upTo.subarray((code - 1) * words, code * words))
    counts[code] = upToCode - below
    below = upToCode
  }
  return counts
}

/** Per-value counts of `selection` (rows without a value count under code 0). */
export const countSelection = (data: DatasetData, selection: Selection, values: Values, stats?: CountStats): Uint32Array => {
  const work: CountStats = stats ?? { strategy: "", visited: 0 }
  const totals = values.kind === "column" ? values.dim.rows : values.totals
  if (selection._tag === "All") {
    work.strategy = "totals"
    work.visited = valueCount(values)
    return postingsCounts(totals)
  }
  const counts = new Uint32Array(valueCount(values))
  const c = selection.count
  if (selection._tag === "Listed") {
    work.strategy = "rows"
    const rows = selection.rows
    work.visited = rows.length
    if (values.kind === "column") {
      const column = values.dim.codes
      for (let i = 0; i < rows.length; i++) counts[column[rows[i]]]++
    } else {
      const { offsets, rows: perRow } = values.perRow
      for (let i = 0; i < rows.length; i++) {
        for (let j = offsets[rows[i]]; j < offsets[rows[i] + 1]; j++) counts[perRow[j]]++
      }
    }
    return counts
  }
  const bits = selection.bits
  const n = data.size
  const words = bits.length
  const yearRange = values.kind === "column" && values.upTo !== undefined && values.upTo.length > 0
    ? allowedRange(selection.yearCodes, counts.length)
    : undefined
  const byRanges = yearRange === undefined ? Infinity : (yearRange[1] - yearRange[0] + 2) * words
  const { rows: postings, dense } = codesOf(values)
  let denseRows = 0
  for (const code of dense.codes) denseRows += postingsCount(postings, code)
  const byCodes = dense.codes.length * words + ASCENDING_BIT * (postings.rows.length - denseRows)
  // A row's list of values costs a random read of its offsets besides its bit.
  const perRow = values.kind === "column" ? BIT_ROW : BIT_ROW + ROW_FILTER
  const bySet = words + perRow * c
  const byUnset = words + perRow * (n - c) + counts.length
  if (yearRange !== undefined && values.kind === "column" && values.upTo !== undefined && byRanges < Math.min(byCodes, bySet, byUnset)) {
    work.strategy = "cumulative"
    work.visited = byRanges
    return countByRanges(values.upTo, bits, yearRange, counts)
  }
  if (byCodes < bySet && byCodes < byUnset) {
    work.strategy = "codes"
    work.visited = byCodes
    return countByCodes(values, bits, counts)
  }
  if (bySet <= byUnset) {
    work.strategy = "set"
    work.visited = bySet
    countBitRows(values, bits, n, false, counts)
    return counts
  }
  work.strategy = "unset"
  work.visited = byUnset
  countBitRows(values, bits, n, true, counts)
  const all = postingsCounts(totals)
  for (let code = 0; code < counts.length; code++) counts[code] = all[code] - counts[code]
  return counts
}
