/**
 * Evaluates resolved filters to a row selection, cheaply (design 2.1):
 * - the driver is the filter with the fewest candidate rows (postings lengths are known without a
 *   scan; for `nom`, a word's candidates are the postings of its token range, contiguous in the CSR);
 * - a small driver is listed in file order (a zero-copy postings view for one code, a merge for a
 *   few, a sort of a small union in fame order) and every other filter is checked on its rows: on
 *   the row's columns when it has one (race, robe, sexe, statut, year, performances, disciplines),
 *   else through a bitmap or binary searches (index codes) or the row's folded name (`nom`),
 *   whichever the cost estimate prefers;
 * - when every filter is large, nothing is listed unless cheap: a lone column filter keeps its
 *   exact count and its column test (lazy selection); name words and index codes are marked in a
 *   byte map, O(their postings), the column filters checked on the marked rows; filters that all
 *   have a row test are evaluated as bitsets: column filters ANDed word by word (a frequent code's
 *   bitset built once and kept), the others tested on the rows left, the count a popcount. A large
 *   driver that the other filters can all test goes the same way when that is cheaper.
 * No filter → the whole set, never materialised (`all`).
 */
import { arenaGet, lowerBound, postingsCount, postingsOf, type Postings } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { foldWords } from "../text/fold.ts"
import { isUnfiltered, type ResolvedFilters } from "./filters.ts"
import { memoPer } from "./memo.ts"

export type RowTest = (row: number) => boolean

/**
 * The rows kept by the filters. Three forms:
 * - every row: `all` true, `rows` undefined (never materialised);
 * - materialised: `rows` ascending (file order), possibly a zero-copy view of a Dataset postings;
 * - lazy: `rows` undefined, `test` answers membership and `count` is exact: large selections whose
 *   count is known without listing them (one dimension over many values, `avec_performances=false`,
 *   name prefixes marked in a bitmap). Consumers that must list them call `selectionRows`.
 */
export interface Selection {
  readonly count: number
  readonly all: boolean
  readonly rows: Uint32Array | undefined
  /**
   * An O(1) membership test, when one exists without a bitmap over the selection: always for a
   * lazy selection; for a materialised one when every filter reads the row's own columns.
   */
  readonly test: RowTest | undefined
  /** Year codes the selected rows may carry (1 = allowed, index = code), when a year filter is set. */
  readonly yearCodes: Uint8Array | undefined
  /** The selection as one bit per row (`bits` strategy), when it was evaluated that way. */
  readonly bits?: Uint32Array
}

export const allRows = (data: DatasetData): Selection => ({
  count: data.size,
  all: true,
  rows: undefined,
  test: undefined,
  yearCodes: undefined
})

export const emptySelection = (): Selection => ({
  count: 0,
  all: false,
  rows: new Uint32Array(0),
  test: () => false,
  yearCodes: undefined
})

/** A selection over explicit rows (ascending, distinct): for tests and callers holding rows. */
export const selectionOfRows = (rows: Uint32Array): Selection => ({
  count: rows.length,
  all: false,
  rows,
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
    bits = bitsOfLists(data.size, [selection.rows ?? new Uint32Array(0)])
    bitmaps.set(selection, bits)
  }
  const b = bits
  return (row) => hasBit(b, row)
}

/**
 * The selected rows ascending: `rows` when materialised, a one-pass scan of the lazy test
 * (cached on the selection), undefined for the whole Dataset (rows 0..size-1).
 */
export const selectionRows = (data: DatasetData, selection: Selection): Uint32Array | undefined => {
  if (selection.all) return undefined
  if (selection.rows !== undefined) return selection.rows
  let rows = listed.get(selection)
  if (rows === undefined) {
    rows = new Uint32Array(selection.count)
    if (selection.bits !== undefined) {
      bitRows(selection.bits, rows)
    } else {
      const test = selection.test ?? (() => false)
      let n = 0
      for (let row = 0; row < data.size && n < rows.length; row++) if (test(row)) rows[n++] = row
    }
    listed.set(selection, rows)
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// Bitsets: one bit per row, 32 rows per word.

const wordsFor = (size: number): number => (size + 31) >>> 5

const popcount = (word: number): number => {
  let x = word - ((word >>> 1) & 0x55555555)
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

const setBits = (bits: Uint32Array, rows: Uint32Array): void => {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    bits[row >>> 5] |= 1 << (row & 31)
  }
}

export const hasBit = (bits: Uint32Array, row: number): boolean => ((bits[row >>> 5] >>> (row & 31)) & 1) === 1

/** A bitset over `size` rows with the rows of `lists` set. */
export const bitsOfLists = (size: number, lists: ReadonlyArray<Uint32Array>): Uint32Array => {
  const bits = new Uint32Array(wordsFor(size))
  for (const list of lists) setBits(bits, list)
  return bits
}

const countBits = (bits: Uint32Array): number => {
  let count = 0
  for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) count += popcount(bits[w])
  return count
}

/** Writes the rows of `bits` ascending into `out` (sized to their count). */
const bitRows = (bits: Uint32Array, out: Uint32Array): void => {
  let n = 0
  for (let w = 0; w < bits.length && n < out.length; w++) {
    let word = bits[w]
    while (word !== 0) {
      const low = word & -word
      out[n++] = (w << 5) | (31 - Math.clz32(low))
      word ^= low
    }
  }
}

/**
 * A dictionary code holding at least one row in DENSE_SHARE is ANDed as a bitset, built once on
 * first use and kept with the Dataset (a few such codes per dimension: the frequent sexes, races,
 * coats and statuses, 0.5 MiB each at 4.45 M rows); rarer codes set their rows' bits directly.
 */
const DENSE_SHARE = 16

const denseBits = memoPer<Postings, number, Uint32Array>()

const isDense = (count: number, size: number): boolean => count * DENSE_SHARE >= size

const codeBits = (postings: Postings, code: number, size: number): Uint32Array =>
  denseBits(postings, code, () => bitsOfLists(size, [postingsOf(postings, code)]))

/** Per-code counts of a single-valued column over the rows of `bits`, without listing them. */
export const countColumnInBits = (codes: ArrayLike<number>, valueCount: number, bits: Uint32Array): Uint32Array => {
  const counts = new Uint32Array(valueCount)
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]
    while (word !== 0) {
      const low = word & -word
      counts[codes[(w << 5) | (31 - Math.clz32(low))]]++
      word ^= low
    }
  }
  return counts
}

/** A column filter as bits: its codes, where their rows are, and the column itself. */
interface ColumnCodes {
  readonly postings: Postings
  readonly codes: ReadonlyArray<number>
  readonly column: ArrayLike<number>
}

/**
 * A one-byte code column as 8 bit slices (slice i: the rows whose code has bit i set), built on
 * first use and kept (8 bits per row: 4.4 MiB at 4.45 M rows). A contiguous range of codes (a
 * range of birth years: the year codes are chronological) is then 8 word passes, whatever the
 * number of codes and rows in it: the comparison of a bit-sliced index.
 */
const SLICES = 8

const sliceCache = new WeakMap<Uint8Array, ReadonlyArray<Uint32Array>>()

const slicesOf = (column: Uint8Array, size: number): ReadonlyArray<Uint32Array> => {
  let slices = sliceCache.get(column)
  if (slices === undefined) {
    const built = Array.from({ length: SLICES }, () => new Uint32Array(wordsFor(size)))
    for (let row = 0; row < size; row++) {
      const w = row >>> 5
      const bit = 1 << (row & 31)
      for (let code = column[row], i = 0; code !== 0; code >>>= 1, i++) if ((code & 1) !== 0) built[i][w] |= bit
    }
    slices = built
    sliceCache.set(column, slices)
  }
  return slices
}

interface CodeRange {
  readonly column: Uint8Array
  readonly lo: number
  readonly hi: number
}

/** `[lo, hi]` of a one-byte column when the codes are a contiguous range of two or more non-zero codes. */
const codeRange = ({ codes, column }: ColumnCodes): CodeRange | undefined => {
  if (!(column instanceof Uint8Array) || codes.length < 2) return undefined
  const sorted = [...codes].sort((a, b) => a - b)
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1] + 1) return undefined
  return sorted[0] >= 1 ? { column, lo: sorted[0], hi: sorted[sorted.length - 1] } : undefined
}

/** Word operations (or bit sets) to turn a column filter into bits code by code. */
const perCodeCost = ({ postings, codes }: ColumnCodes, size: number): number => {
  let cost = 0
  for (const code of codes) {
    const count = postingsCount(postings, code)
    cost += isDense(count, size) ? wordsFor(size) : count
  }
  return cost
}

/** The column filter's code range, when reading it from the slices is cheaper than code by code. */
const slicedRange = (column: ColumnCodes, size: number): CodeRange | undefined => {
  const range = codeRange(column)
  return range !== undefined && SLICES * wordsFor(size) < perCodeCost(column, size) ? range : undefined
}

/** Word operations (or bit sets) to turn a column filter into bits, the way `andColumn` will. */
const bitsCost = (column: ColumnCodes, size: number): number =>
  slicedRange(column, size) === undefined ? perCodeCost(column, size) : SLICES * wordsFor(size)

/**
 * Writes into `out` (or ANDs, unless `first`) the rows whose code lies in `[lo, hi]`, from the
 * slices, most significant first: a row stays "equal" to a bound while its bits match the bound's,
 * and becomes above `lo` (below `hi`) at the first bit where it has 1 and `lo` 0 (0 and `hi` 1).
 * Branch-free: a bound's bit is a mask of all ones or all zeros.
 */
const andRange = (out: Uint32Array, slices: ReadonlyArray<Uint32Array>, lo: number, hi: number, first: boolean): void => {
  const loMasks = new Int32Array(SLICES)
  const hiMasks = new Int32Array(SLICES)
  for (let i = 0; i < SLICES; i++) {
    loMasks[i] = -((lo >>> i) & 1)
    hiMasks[i] = -((hi >>> i) & 1)
  }
  for (let w = 0; w < out.length; w++) {
    let above = 0
    let equalLo = -1
    let below = 0
    let equalHi = -1
    for (let i = SLICES - 1; i >= 0; i--) {
      const slice = slices[i][w]
      above |= equalLo & slice & ~loMasks[i]
      equalLo &= ~(slice ^ loMasks[i])
      below |= equalHi & ~slice & hiMasks[i]
      equalHi &= ~(slice ^ hiMasks[i])
    }
    const inRange = (above | equalLo) & (below | equalHi)
    out[w] = first ? inRange : out[w] & inRange
  }
}

/** ANDs into `acc` (or writes, when `first`) the rows carrying any of the column filter's codes. */
const andColumn = (acc: Uint32Array, column: ColumnCodes, size: number, first: boolean): void => {
  const { postings, codes } = column
  if (codes.length === 1 && isDense(postingsCount(postings, codes[0]), size)) {
    const bits = codeBits(postings, codes[0], size)
    if (first) acc.set(bits)
    else for (let w = 0; w < acc.length; w++) acc[w] &= bits[w]
    return
  }
  const range = slicedRange(column, size)
  if (range !== undefined) {
    andRange(acc, slicesOf(range.column, size), range.lo, range.hi, first)
    return
  }
  const union = first ? acc : new Uint32Array(acc.length)
  for (const code of codes) {
    const count = postingsCount(postings, code)
    if (isDense(count, size)) {
      const bits = codeBits(postings, code, size)
      for (let w = 0; w < union.length; w++) union[w] |= bits[w]
    } else {
      setBits(union, postingsOf(postings, code))
    }
  }
  if (!first) for (let w = 0; w < acc.length; w++) acc[w] &= union[w]
}

/**
 * Column filters ANDed as bitsets (word by word), then the other filters' row tests applied to
 * the rows left; the count is a popcount. O(words per column filter + rows left), whatever the
 * sizes of the filters: what large filters together cost.
 */
const selectBits = (
  size: number,
  columns: ReadonlyArray<ColumnCodes>,
  residual: RowTest | undefined
): { readonly count: number; readonly bits: Uint32Array } => {
  const acc = new Uint32Array(wordsFor(size))
  if (columns.length === 0) {
    acc.fill(0xffffffff)
    if ((size & 31) !== 0) acc[acc.length - 1] = (1 << (size & 31)) - 1
  }
  columns.forEach((column, i) => andColumn(acc, column, size, i === 0))
  let count = 0
  for (let w = 0; w < acc.length; w++) {
    let word = acc[w]
    if (word === 0) continue
    if (residual !== undefined) {
      let kept = word
      while (word !== 0) {
        const low = word & -word
        if (!residual((w << 5) | (31 - Math.clz32(low)))) kept &= ~low
        word ^= low
      }
      acc[w] = kept
      word = kept
    }
    count += popcount(word)
  }
  return { count, bits: acc }
}

// ---------------------------------------------------------------------------------------------
// Sorted unions.

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

const sortDistinct = (rows: Uint32Array): Uint32Array => {
  rows.sort()
  let n = 0
  for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[n++] = rows[i]
  return rows.subarray(0, n)
}

/** Threshold above which a selection is not cheap to list (a union of it would scan all rows). */
const bitmapWorthIt = (total: number, size: number): boolean => total * 16 >= size

/**
 * Threshold above which an unsorted union goes through a bitset (one bit per row: setting the
 * rows, then a pass over size / 32 words) rather than a sort (O(total log total)). Below it the
 * two cost about the same, and a sort allocates only the rows, not a bitset over every row.
 */
const bitsetUnionWorthIt = (total: number, size: number): boolean => total * 32 >= size

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

// ---------------------------------------------------------------------------------------------
// Token ranges for `nom`.


/** Range `[lo, hi)` of the sorted tokens that start with `prefix`. */
export const prefixRange = (tokens: ReadonlyArray<string>, prefix: string): readonly [number, number] => {
  const lo = lowerBound(tokens, prefix)
  let a = lo
  let b = tokens.length
  while (a < b) {
    const mid = (a + b) >>> 1
    if (tokens[mid].startsWith(prefix)) a = mid + 1
    else b = mid
  }
  return [lo, a]
}

/** Index of the token equal to `word`, or -1. */
export const exactToken = (tokens: ReadonlyArray<string>, word: string): number => {
  const i = lowerBound(tokens, word)
  return i < tokens.length && tokens[i] === word ? i : -1
}

/**
 * Folded words of a row's name, as the token index folded them. Names made only of `A-Z`, `0-9`
 * and spaces (most registry names) are split straight from their UTF-8 bytes.
 */
export const rowWords = (data: DatasetData, row: number): Array<string> => {
  const { bytes, offsets } = data.nom
  const start = offsets[row]
  const end = offsets[row + 1]
  const words: Array<string> = []
  let wordStart = start
  for (let i = start; i <= end; i++) {
    const b = i < end ? bytes[i] : 0x20
    if (b === 0x20) {
      if (i > wordStart) words.push(String.fromCharCode.apply(null, bytes.subarray(wordStart, i) as unknown as Array<number>))
      wordStart = i + 1
    } else if (!((b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39))) {
      return foldWords(arenaGet(data.nom, row))
    }
  }
  return words
}

/** True when every word of `prefixes` is a prefix of some word of `words`. */
export const allPrefixesPresent = (words: ReadonlyArray<string>, prefixes: ReadonlyArray<string>): boolean => {
  for (const prefix of prefixes) {
    let found = false
    for (const word of words) {
      if (word.startsWith(prefix)) { found = true; break }
    }
    if (!found) return false
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// Terms: one per active filter.

/** Relative cost of folding a row's name against marking one posting in a bitmap. */
export const FOLD_COST = 150

interface Term {
  readonly name: string
  /** Upper bound of the rows this filter keeps (exact when `exact`). */
  readonly estimate: number
  /** True when `estimate` is the exact count (single-valued columns, performances). */
  readonly exact: boolean
  /** The rows ascending without any scan or sort (a view into the Dataset), when there is one. */
  readonly view: Uint32Array | undefined
  /** The rows this filter keeps, ascending (may be a view into the Dataset: never write into it). */
  readonly rows: () => Uint32Array
  /** The postings lists holding this filter's rows (any order, possibly overlapping). */
  readonly lists: ReadonlyArray<Uint32Array>
  /** Keeps, in place, the rows of `rows[0..n)` that pass; answers the new length. */
  readonly filter: (rows: Uint32Array, n: number) => number
  /** A per-row test on the row's columns, when there is one. */
  readonly test: RowTest | undefined
  /** For a single-valued column filter: its codes, to be ANDed as bits. */
  readonly column?: ColumnCodes
  /** For a `nom` word: the folded prefix. */
  readonly prefix?: string
}

const allowedTable = (codes: ReadonlyArray<number>, length: number): Uint8Array => {
  const table = new Uint8Array(length)
  for (const code of codes) table[code] = 1
  return table
}

const filterWith = (test: RowTest) => (rows: Uint32Array, n: number): number => {
  let m = 0
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    if (test(row)) rows[m++] = row
  }
  return m
}

const totalLength = (lists: ReadonlyArray<Uint32Array>): number => {
  let total = 0
  for (const l of lists) total += l.length
  return total
}

/** Keeps rows found in ascending `lists`, by binary search when few rows are checked, else a bitmap. */
const filterByLists = (size: number, lists: ReadonlyArray<Uint32Array>) => (rows: Uint32Array, n: number): number => {
  let probeCost = 0
  for (const l of lists) probeCost += n * Math.log2(l.length + 2)
  if (probeCost < totalLength(lists)) {
    return filterWith((row) => {
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
    })(rows, n)
  }
  const bits = bitsOfLists(size, lists)
  return filterWith((row) => hasBit(bits, row))(rows, n)
}

/** A single-valued dimension column (race, robe, sexe, statut, year). */
const columnTerm = (
  name: string,
  size: number,
  codesColumn: ArrayLike<number>,
  postings: Postings,
  codes: ReadonlyArray<number>,
  valueCount: number
): Term => {
  const allowed = allowedTable(codes, valueCount)
  const lists = codes.map((code) => postingsOf(postings, code))
  const estimate = totalLength(lists)
  const test: RowTest = (row) => allowed[codesColumn[row]] === 1
  return {
    name,
    estimate,
    exact: true,
    view: lists.length === 1 ? lists[0] : undefined,
    rows: () => {
      if (codes.length <= 4 || !bitmapWorthIt(estimate, size)) return unionSorted(lists, size)
      // Many codes covering a good share of the rows: one pass over the column.
      const out = new Uint32Array(estimate)
      let n = 0
      for (let row = 0; row < size; row++) if (allowed[codesColumn[row]] === 1) out[n++] = row
      return out
    },
    lists,
    filter: filterWith(test),
    test,
    column: { postings, codes, column: codesColumn }
  }
}

/** Rows carrying any of `codes` in a multi-valued postings (index codes): no column to test. */
const postingsTerm = (name: string, size: number, postings: Postings, codes: ReadonlyArray<number>): Term => {
  const lists = codes.map((code) => postingsOf(postings, code))
  return {
    name,
    estimate: totalLength(lists),
    exact: lists.length === 1,
    view: lists.length === 1 ? lists[0] : undefined,
    rows: () => unionSorted(lists, size),
    lists,
    filter: filterByLists(size, lists),
    test: undefined
  }
}

const disciplineTerm = (data: DatasetData, codes: ReadonlyArray<number>): Term => {
  const base = postingsTerm("discipline", data.size, data.discipline.rows, codes)
  const allowed = allowedTable(codes, data.discipline.values.length)
  const { offsets, rows: perRow } = data.rowDisciplines
  const test: RowTest = (row) => {
    for (let i = offsets[row]; i < offsets[row + 1]; i++) if (allowed[perRow[i]] === 1) return true
    return false
  }
  return { ...base, filter: filterWith(test), test }
}

const performancesTerm = (data: DatasetData, wanted: boolean): Term => {
  const offsets = data.performances.offsets
  const test: RowTest = wanted
    ? (row) => offsets[row + 1] > offsets[row]
    : (row) => offsets[row + 1] === offsets[row]
  const withCount = data.withPerformances.length
  return {
    name: "avec_performances",
    estimate: wanted ? withCount : data.size - withCount,
    exact: true,
    view: wanted ? data.withPerformances : undefined,
    rows: () => {
      if (wanted) return data.withPerformances
      const out = new Uint32Array(data.size - withCount)
      let n = 0
      for (let row = 0; row < data.size; row++) if (test(row)) out[n++] = row
      return out
    },
    lists: wanted ? [data.withPerformances] : [],
    filter: filterWith(test),
    test
  }
}

/** One word of `nom`: rows with a word starting with it (token range postings, fame order). */
const nomTerm = (data: DatasetData, prefix: string): Term => {
  const { tokens, rows: postings } = data.names
  const [lo, hi] = prefixRange(tokens, prefix)
  const estimate = postings.offsets[hi] - postings.offsets[lo]
  const range = postings.rows.subarray(postings.offsets[lo], postings.offsets[hi])
  return {
    name: `nom:${prefix}`,
    prefix,
    estimate,
    exact: hi - lo <= 1,
    view: undefined,
    rows: () => unionUnsorted([range], estimate, data.size),
    lists: [range],
    filter: (rows, n) => {
      const bits = bitsOfLists(data.size, [range])
      return filterWith((row) => hasBit(bits, row))(rows, n)
    },
    test: undefined
  }
}

/** Counters of the last `select` call's strategy, for tests and metrics. */
export interface SelectStats {
  driver: string
  strategy: string
  /** Rows read or checked (folding a name counts FOLD_COST). */
  visited: number
}

const combine = (tests: ReadonlyArray<RowTest>): RowTest | undefined => {
  if (tests.length === 0) return undefined
  if (tests.length === 1) return tests[0]
  if (tests.length === 2) {
    const [a, b] = tests
    return (row) => a(row) && b(row)
  }
  return (row) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i](row)) return false
    return true
  }
}

/**
 * Large selections without a cheap list: rows of the list-only filters (name words, index codes)
 * are marked level by level in one byte per row (level k = passed the first k filters); the last
 * level also applies the column tests and counts. O(sum of their postings), no scan of all rows.
 */
const markLevels = (
  size: number,
  listTerms: ReadonlyArray<Term>,
  columnTest: RowTest | undefined,
  stats: SelectStats
): { readonly count: number; readonly test: RowTest; readonly rows: Uint32Array | undefined } => {
  const levels = listTerms.length < 255 ? new Uint8Array(size) : new Uint16Array(size)
  // Kept rows are also collected while few (then sorted): a listed selection is cheaper to page.
  const cap = Math.floor(size / LIST_MARKED_BELOW)
  let collected: Uint32Array | undefined = new Uint32Array(Math.min(cap, listTerms[listTerms.length - 1].estimate))
  let count = 0
  listTerms.forEach((term, k) => {
    const last = k === listTerms.length - 1
    for (const list of term.lists) {
      stats.visited += list.length
      for (let i = 0; i < list.length; i++) {
        const row = list[i]
        if (levels[row] !== k) continue
        if (last && columnTest !== undefined && !columnTest(row)) continue
        levels[row] = k + 1
        if (last) {
          if (collected !== undefined) {
            if (count < collected.length) collected[count] = row
            else collected = undefined
          }
          count++
        }
      }
    }
  })
  const final = listTerms.length
  return { count, test: (row) => levels[row] === final, rows: collected?.subarray(0, count).sort() }
}

/** Below this many rows, a driver is listed and checked whatever the other filters (it is cheap). */
const BITS_MIN_DRIVER = 1 << 14

/** Marked selections of at most size / LIST_MARKED_BELOW rows are listed (sorted) as well. */
const LIST_MARKED_BELOW = 128

/**
 * The rows kept by the filters (file order) with their count; `stats`, when given, is filled
 * with the driver and strategy chosen and the work done.
 *
 * - the smallest filter drives when its rows can be listed cheaply (a postings view, a merge of
 *   a few lists, a sort of a small union); every other filter is then checked on those rows;
 * - when every filter is large, nothing is listed: a lone column filter (or performances) keeps
 *   its exact count and its column test; name words and index codes are marked in a bitmap
 *   (O(their postings)); filters that all have a row test are evaluated as bitsets.
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
  const terms: Array<Term> = []
  const column = (name: string, dim: DatasetData["race"], codes: ReadonlyArray<number> | undefined) => {
    if (codes !== undefined) terms.push(columnTerm(name, size, dim.codes, dim.rows, codes, dim.values.length))
  }
  column("race", data.race, filters.race)
  column("robe", data.robe, filters.robe)
  column("sexe", data.sexe, filters.sexe)
  column("statut", data.statut, filters.statut)
  column("annee", data.annee, filters.annee)
  if (filters.discipline !== undefined) terms.push(disciplineTerm(data, filters.discipline))
  if (filters.indice !== undefined) terms.push(postingsTerm("indice", size, data.indice.rows, filters.indice))
  if (filters.avecPerformances !== undefined) terms.push(performancesTerm(data, filters.avecPerformances))
  for (const word of filters.nom ?? []) terms.push(nomTerm(data, word))

  terms.sort((a, b) => a.estimate - b.estimate)
  const yearCodes = filters.annee === undefined ? undefined : allowedTable(filters.annee, data.annee.values.length)
  const testable = terms.every((t) => t.test !== undefined)
  const columnTest = combine(terms.flatMap((t) => (t.test === undefined ? [] : [t.test])))
  const materialised = (rows: Uint32Array): Selection => ({
    count: rows.length,
    all: false,
    rows,
    test: testable ? columnTest : undefined,
    yearCodes
  })
  const lazy = (count: number, test: RowTest): Selection => ({ count, all: false, rows: undefined, test, yearCodes })
  const marked = (m: ReturnType<typeof markLevels>): Selection =>
    m.rows === undefined ? lazy(m.count, m.test) : { count: m.count, all: false, rows: m.rows, test: m.test, yearCodes }

  const driver = terms[0]
  st.driver = driver.name
  if (driver.estimate === 0) {
    st.strategy = "empty"
    return materialised(new Uint32Array(0))
  }
  const cheap = driver.view !== undefined || !bitmapWorthIt(driver.estimate, size)

  if (terms.length === 1) {
    if (cheap) {
      st.strategy = "list"
      st.visited = driver.estimate
      return materialised(driver.view ?? driver.rows())
    }
    if (driver.exact && driver.test !== undefined) {
      st.strategy = "lazy-column"
      return lazy(driver.estimate, driver.test)
    }
    st.strategy = "mark"
    return marked(markLevels(size, [driver], undefined, st))
  }

  const bitsSelection = (): Selection => {
    st.strategy = "bits"
    const columns = terms.flatMap((t) => (t.column === undefined ? [] : [t.column]))
    const residual = combine(terms.flatMap((t) => (t.column === undefined && t.test !== undefined ? [t.test] : [])))
    const { count, bits } = selectBits(size, columns, residual)
    st.visited = columns.reduce((sum, column) => sum + bitsCost(column, size), 0) + wordsFor(size)
    return { count, all: false, rows: undefined, test: (row) => hasBit(bits, row), yearCodes, bits }
  }

  if (!cheap) {
    const listTerms = terms.filter((t) => t.test === undefined)
    if (listTerms.length > 0) {
      st.strategy = "mark"
      return marked(markLevels(size, listTerms, columnTest, st))
    }
    // Only filters with a row test, all large.
    return bitsSelection()
  }

  // A large driver that every other filter can test: bits when the column filters cost fewer word
  // operations than the driver has rows to list and check.
  if (testable && driver.estimate >= BITS_MIN_DRIVER) {
    let cost = wordsFor(size)
    for (const term of terms) if (term.column !== undefined) cost += bitsCost(term.column, size)
    if (cost < driver.estimate * terms.length) return bitsSelection()
  }

  // A small driver: list it, check the others on its rows (never writing into a Dataset view).
  st.strategy = "drive"
  const rows = driver.view !== undefined ? driver.view.slice() : driver.rows().slice()
  let n = rows.length
  st.visited = n
  const remaining = terms.slice(1)
  const nomRest = remaining.filter((t) => t.prefix !== undefined)
  let nomBitmapCost = 0
  for (const t of nomRest) nomBitmapCost += t.estimate
  for (const term of remaining) {
    if (n === 0) break
    if (term.prefix !== undefined) continue
    st.visited += n
    n = term.filter(rows, n)
  }
  if (nomRest.length > 0 && n > 0) {
    if (n * FOLD_COST < nomBitmapCost) {
      st.visited += n * FOLD_COST
      const prefixes = nomRest.map((t) => t.prefix as string)
      n = filterWith((row) => allPrefixesPresent(rowWords(data, row), prefixes))(rows, n)
    } else {
      for (const term of nomRest) {
        st.visited += term.estimate
        n = term.filter(rows, n)
      }
    }
  }
  return materialised(rows.subarray(0, n))
}
