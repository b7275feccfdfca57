/** Unions of row lists, ascending and distinct: a merge, a sort, or a bitset, by their sizes. */
import { bitRows, bitsOfLists, countBits, wordsFor } from "../dataset/bits.ts"

/** Merges two ascending arrays, dropping duplicates. */
const mergeTwo = (a: Uint32Array, b: Uint32Array): Uint32Array => {
  const out = new Uint32Array(a.length + b.length)
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) {
    const x = a[i]
    const y = b[j]
    if (x < y) { out[n++] = x; i++ }
    else if (y < x) { out[n++] = y; j++ }
    else { out[n++] = x; i++; j++ }
  }
  while (i < a.length) out[n++] = a[i++]
  while (j < b.length) out[n++] = b[j++]
  return n === out.length ? out : out.subarray(0, n)
}

/**
 * Moves the distinct values of sorted `rows` to its start; returns how many. The loop is the whole
 * of the function (docs/decisions.md, "A hot loop is the whole of its function").
 */
const compactDistinct = (rows: Uint32Array): number => {
  let n = 0
  for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[n++] = rows[i]
  return n
}

const sortDistinct = (rows: Uint32Array): Uint32Array => {
  rows.sort()
  return rows.subarray(0, compactDistinct(rows))
}

/**
 * Threshold above which an unsorted union goes through a bitset (one bit per row: setting the
 * rows, then a pass over size / 32 words) rather than a sort (O(total log total)). Below it the
 * two cost about the same, and a sort allocates only the rows, not a bitset over every row
 * (under load, per-request bitsets brought full collections: docs/performance.md).
 */
const bitsetUnionWorthIt = (total: number, size: number): boolean => total >= wordsFor(size)

/** Union of row lists in any order (token postings are in fame order), ascending and distinct. */
export const unionUnsorted = (lists: ReadonlyArray<Uint32Array>, total: number, size: number): Uint32Array => {
  if (bitsetUnionWorthIt(total, size)) {
    const bits = bitsOfLists(size, lists)
    const out = new Uint32Array(countBits(bits))
    bitRows(bits, out)
    return out
  }
  const all = new Uint32Array(total)
  let n = 0
  for (const l of lists) { all.set(l, n); n += l.length }
  return sortDistinct(all)
}

/**
 * Union of ascending row lists, ascending and distinct. The result may be one of the inputs
 * (a view into the Dataset): never write into it.
 */
export const unionSorted = (lists: ReadonlyArray<Uint32Array>, size: number): Uint32Array => {
  const nonEmpty = lists.filter((l) => l.length > 0)
  if (nonEmpty.length === 0) return new Uint32Array(0)
  if (nonEmpty.length === 1) return nonEmpty[0]
  let total = 0
  for (const l of nonEmpty) total += l.length
  if (nonEmpty.length <= 4) {
    let acc = nonEmpty[0]
    for (let i = 1; i < nonEmpty.length; i++) acc = mergeTwo(acc, nonEmpty[i])
    return acc
  }
  return unionUnsorted(nonEmpty, total, size)
}
