/**
 * One term per active filter, each able to answer in the three ways the planner (`select.ts`)
 * chooses between: its rows listed, a filter of other rows, or its rows ANDed into a bitset; with
 * the cost of each, in the units of `costs.ts`. Bitsets the Dataset keeps (frequent codes,
 * cumulative years, frequent name prefixes, performances) are used as they are.
 */
import { bitRows, setBits, wordsFor } from "../dataset/bits.ts"
import { denseBits, dictionarySize, type Dimension, postingsCount, postingsOf, type Postings } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { ASCENDING_BIT, BIT_ROW, NAME_FILTER, RANDOM_BIT, ROW_FILTER } from "./costs.ts"
import type { ResolvedFilters } from "./filters.ts"
import { hasTokenIn, prefixRange, prefixSet } from "./nameTokens.ts"
import { unionSorted, unionUnsorted } from "./unions.ts"

export interface Term {
  readonly name: string
  /** Upper bound of the rows this filter keeps (exact when `exact`). */
  readonly estimate: number
  readonly exact: boolean
  /** The rows ascending without any work (a view into the Dataset), when there is one. */
  readonly view: Uint32Array | undefined
  /** The rows ascending (may be a view into the Dataset: never write into it). */
  readonly rows: () => Uint32Array
  /** Cost of `rows`. */
  readonly rowsCost: number
  /** Keeps, in place, the rows of `rows[0..n)` that pass; answers the new length. */
  readonly filter: (rows: Uint32Array, n: number) => number
  /** Cost of `filter` per row. */
  readonly filterCost: number
  /** The rows as a bitset the Dataset keeps (never write into it), when there is one. */
  readonly stored: Uint32Array | undefined
  /** Cost of `andInto`. */
  readonly bitsCost: number
  /** ANDs the rows into `acc` (writes them, when `first`: `acc` is then all zeros). */
  readonly andInto: (acc: Uint32Array, first: boolean) => void
}

/** Keeps the rows whose code is allowed: branch-free, the hot loop of a driven selection. */
const filterCodes = (allowed: Uint8Array, column: ArrayLike<number>) => (rows: Uint32Array, n: number): number => {
  let m = 0
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    rows[m] = row
    m += allowed[column[row]]
  }
  return m
}

const filterBits = (bits: Uint32Array) => (rows: Uint32Array, n: number): number => {
  let m = 0
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    rows[m] = row
    m += (bits[row >>> 5] >>> (row & 31)) & 1
  }
  return m
}

const filterWith = (keep: (row: number) => boolean) => (rows: Uint32Array, n: number): number => {
  let m = 0
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    if (keep(row)) rows[m++] = row
  }
  return m
}

export const allowedTable = (codes: ReadonlyArray<number>, length: number): Uint8Array => {
  const table = new Uint8Array(length)
  for (const code of codes) table[code] = 1
  return table
}

const totalLength = (lists: ReadonlyArray<Uint32Array>): number => {
  let total = 0
  for (const l of lists) total += l.length
  return total
}

const andBits = (bits: Uint32Array) => (acc: Uint32Array, first: boolean): void => {
  if (first) acc.set(bits)
  else for (let w = 0; w < acc.length; w++) acc[w] &= bits[w]
}

/**
 * ANDs into `acc` (or writes, when `first`) the complement of `bits`. The loop is the whole of the
 * function (docs/decisions.md, "A hot loop is the whole of its function").
 */
const andNotInto = (acc: Uint32Array, bits: Uint32Array, first: boolean): void => {
  for (let w = 0; w < acc.length; w++) acc[w] = first ? ~bits[w] : acc[w] & ~bits[w]
}

/** ANDs the union that `fill` writes into a zeroed bitset. */
const andUnion = (fill: (bits: Uint32Array) => void) => (acc: Uint32Array, first: boolean): void => {
  if (first) {
    fill(acc)
    return
  }
  const union = new Uint32Array(acc.length)
  fill(union)
  for (let w = 0; w < acc.length; w++) acc[w] &= union[w]
}

const setLists = (lists: ReadonlyArray<Uint32Array>) => (bits: Uint32Array): void => {
  for (const list of lists) setBits(bits, list)
}

/**
 * ANDs into `out` (or writes, when `first`) the rows whose code lies in `[lo, hi]`, from the
 * cumulative bitsets (`upTo`, set k: codes 1..k+1): "up to hi" without "up to lo − 1".
 */
const andRange = (upTo: Uint32Array, lo: number, hi: number) => (out: Uint32Array, first: boolean): void => {
  const words = out.length
  const high = upTo.subarray((hi - 1) * words, hi * words)
  if (lo === 1) {
    andBits(high)(out, first)
    return
  }
  const low = upTo.subarray((lo - 2) * words, (lo - 1) * words)
  for (let w = 0; w < words; w++) out[w] = first ? high[w] & ~low[w] : out[w] & high[w] & ~low[w]
}

/** `[lo, hi]` when the codes are a contiguous range of two or more non-zero codes. */
const contiguous = (codes: ReadonlyArray<number>): readonly [number, number] | undefined => {
  if (codes.length < 2 || codes[0] < 1) return undefined
  for (let i = 1; i < codes.length; i++) if (codes[i] !== codes[i - 1] + 1) return undefined
  return [codes[0], codes[codes.length - 1]]
}

/** A single-valued column (race, robe, sexe, statut, year); `upTo` are its cumulative bitsets, if kept. */
const columnTerm = (name: string, size: number, dim: Dimension, codes: ReadonlyArray<number>, upTo: Uint32Array): Term => {
  const words = wordsFor(size)
  const allowed = allowedTable(codes, dictionarySize(dim.values))
  const column = dim.codes
  const lists = codes.map((code) => postingsOf(dim.rows, code))
  const estimate = totalLength(lists)
  const dense = codes.map((code) => denseBits(dim.dense, code, words))
  const stored = codes.length === 1 ? dense[0] : undefined
  let perCode = 0
  codes.forEach((code, i) => (perCode += dense[i] === undefined ? ASCENDING_BIT * postingsCount(dim.rows, code) : words))
  const range = upTo.length > 0 ? contiguous(codes) : undefined
  const cumulative = range !== undefined && 2 * words < perCode
  return {
    name,
    estimate,
    exact: true,
    view: lists.length === 1 ? lists[0] : undefined,
    rows: () => {
      if (codes.length <= 4 || estimate * 16 < size) return unionSorted(lists, size)
      // Many codes covering a good share of the rows: one pass over the column.
      const out = new Uint32Array(estimate)
      let n = 0
      for (let row = 0; row < size; row++) if (allowed[column[row]] === 1) out[n++] = row
      return out
    },
    // A merge of a few lists compares every row at each of its steps (unpredictable branches).
    rowsCost: lists.length === 1 ? estimate : codes.length <= 4 || estimate * 16 < size ? 4 * estimate : size,
    filter: filterCodes(allowed, column),
    filterCost: ROW_FILTER,
    stored,
    bitsCost: cumulative ? 2 * words : perCode,
    andInto: stored !== undefined
      ? andBits(stored)
      : cumulative
      ? andRange(upTo, range[0], range[1])
      : andUnion((bits) => {
        codes.forEach((code, i) => {
          const set = dense[i]
          if (set === undefined) setBits(bits, postingsOf(dim.rows, code))
          else for (let w = 0; w < words; w++) bits[w] |= set[w]
        })
      })
  }
}

/** Rows carrying any of `codes` in a multi-valued postings (disciplines, index codes). */
const postingsTerm = (
  name: string,
  size: number,
  postings: Postings,
  codes: ReadonlyArray<number>,
  keep: (row: number) => boolean,
  keepCost: number
): Term => {
  const lists = codes.map((code) => postingsOf(postings, code))
  const estimate = totalLength(lists)
  return {
    name,
    estimate,
    exact: lists.length === 1,
    view: lists.length === 1 ? lists[0] : undefined,
    rows: () => unionSorted(lists, size),
    rowsCost: 2 * estimate,
    filter: filterWith(keep),
    filterCost: keepCost,
    stored: undefined,
    bitsCost: ASCENDING_BIT * estimate,
    andInto: andUnion(setLists(lists))
  }
}

const disciplineTerm = (data: DatasetData, codes: ReadonlyArray<number>): Term => {
  const allowed = allowedTable(codes, dictionarySize(data.discipline.values))
  const { offsets, rows: perRow } = data.rowDisciplines
  const keep = (row: number): boolean => {
    for (let i = offsets[row]; i < offsets[row + 1]; i++) if (allowed[perRow[i]] === 1) return true
    return false
  }
  return postingsTerm("discipline", data.size, data.discipline.rows, codes, keep, 2 * ROW_FILTER)
}

/** Index codes have no per-row column: a row is found in their ascending lists by binary search. */
const indiceTerm = (data: DatasetData, codes: ReadonlyArray<number>): Term => {
  const lists = codes.map((code) => postingsOf(data.indice.rows, code))
  const keep = (row: number): boolean => {
    for (const l of lists) {
      let lo = 0
      let hi = l.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (l[mid] < row) lo = mid + 1
        else hi = mid
      }
      if (lo < l.length && l[lo] === row) return true
    }
    return false
  }
  let keepCost = 0
  for (const l of lists) keepCost += ROW_FILTER * Math.log2(l.length + 2)
  return postingsTerm("indice", data.size, data.indice.rows, codes, keep, keepCost)
}

const performancesTerm = (data: DatasetData, wanted: boolean): Term => {
  const size = data.size
  const offsets = data.performances.offsets
  const withBits = data.withPerformancesBits
  const words = withBits.length
  const withCount = data.withPerformances.length
  return {
    name: "avec_performances",
    estimate: wanted ? withCount : size - withCount,
    exact: true,
    view: wanted ? data.withPerformances : undefined,
    rows: () => {
      if (wanted) return data.withPerformances
      const out = new Uint32Array(size - withCount)
      let n = 0
      for (let row = 0; row < size; row++) if (offsets[row + 1] === offsets[row]) out[n++] = row
      return out
    },
    rowsCost: wanted ? withCount : size,
    filter: (rows, n) => {
      const flip = wanted ? 0 : 1
      let m = 0
      for (let i = 0; i < n; i++) {
        const row = rows[i]
        rows[m] = row
        m += ((withBits[row >>> 5] >>> (row & 31)) & 1) ^ flip
      }
      return m
    },
    filterCost: ROW_FILTER,
    stored: wanted ? withBits : undefined,
    bitsCost: words,
    andInto: wanted ? andBits(withBits) : (acc, first) => {
      andNotInto(acc, withBits, first)
      // Bits past the last row stay clear.
      if ((size & 31) !== 0) acc[words - 1] &= 0xffffffff >>> (32 - (size & 31))
    }
  }
}

/** One word of `nom`: rows with a word starting with it (a token range). */
const nomTerm = (data: DatasetData, prefix: string): Term => {
  const size = data.size
  const { tokens, rows: postings } = data.names
  const [lo, hi] = prefixRange(tokens, prefix)
  const total = postings.offsets[hi] - postings.offsets[lo]
  const range = postings.rows.subarray(postings.offsets[lo], postings.offsets[hi])
  const set = prefixSet(data, lo, hi)
  if (set !== undefined) {
    const bits = set.bits
    return {
      name: `nom:${prefix}`,
      estimate: set.count,
      exact: true,
      view: undefined,
      rows: () => {
        const out = new Uint32Array(set.count)
        bitRows(bits, out)
        return out
      },
      rowsCost: bits.length + BIT_ROW * set.count,
      filter: filterBits(bits),
      filterCost: ROW_FILTER,
      stored: bits,
      bitsCost: bits.length,
      andInto: andBits(bits)
    }
  }
  return {
    name: `nom:${prefix}`,
    estimate: total,
    exact: hi - lo <= 1,
    view: undefined,
    rows: () => unionUnsorted([range], total, size),
    rowsCost: wordsFor(size) + (RANDOM_BIT + BIT_ROW) * total,
    filter: filterWith((row) => hasTokenIn(data, row, lo, hi)),
    filterCost: NAME_FILTER,
    stored: undefined,
    bitsCost: RANDOM_BIT * total,
    andInto: andUnion((bits) => setBits(bits, range))
  }
}

/** The terms of the active filters, in no particular order. */
export const termsOf = (data: DatasetData, filters: ResolvedFilters): Array<Term> => {
  const size = data.size
  const terms: Array<Term> = []
  const none = new Uint32Array(0)
  if (filters.race !== undefined) terms.push(columnTerm("race", size, data.race, filters.race, none))
  if (filters.robe !== undefined) terms.push(columnTerm("robe", size, data.robe, filters.robe, none))
  if (filters.sexe !== undefined) terms.push(columnTerm("sexe", size, data.sexe, filters.sexe, none))
  if (filters.statut !== undefined) terms.push(columnTerm("statut", size, data.statut, filters.statut, none))
  if (filters.annee !== undefined) terms.push(columnTerm("annee", size, data.annee, filters.annee, data.yearsUpTo))
  if (filters.discipline !== undefined) terms.push(disciplineTerm(data, filters.discipline))
  if (filters.indice !== undefined) terms.push(indiceTerm(data, filters.indice))
  if (filters.avecPerformances !== undefined) terms.push(performancesTerm(data, filters.avecPerformances))
  for (const word of filters.nom ?? []) terms.push(nomTerm(data, word))
  return terms
}
