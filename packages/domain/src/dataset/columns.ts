/**
 * Building blocks of the columnar Dataset: at 4.45 M rows one object per record would cost
 * gigabytes and minutes of garbage collection, so everything is typed arrays and string arenas.
 */

/** Strings packed as UTF-8 in one buffer: value `i` is `bytes[offsets[i]..offsets[i+1]]`. */
export interface StringArena {
  readonly bytes: Uint8Array
  readonly offsets: Uint32Array
}

// ignoreBOM: a value starting with U+FEFF is served with it, as ingestion stored it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

export const arenaGet = (arena: StringArena, i: number): string => {
  const start = arena.offsets[i]
  const end = arena.offsets[i + 1]
  return start === end ? "" : decoder.decode(arena.bytes.subarray(start, end))
}

/**
 * Rows grouped by key (a dictionary code, a token…): the rows of key `k` are
 * `rows[offsets[k]..offsets[k+1]]`, ascending unless the index says otherwise.
 */
export interface Postings {
  readonly offsets: Uint32Array
  readonly rows: Uint32Array
}

export const postingsOf = (postings: Postings, key: number): Uint32Array =>
  postings.rows.subarray(postings.offsets[key], postings.offsets[key + 1])

export const postingsCount = (postings: Postings, key: number): number =>
  postings.offsets[key + 1] - postings.offsets[key]

/**
 * Bitsets (see `bits.ts`) of the codes of a column that hold at least 1/DENSE_SHARE of the rows:
 * a filter on such a code is ANDed word by word, and a breakdown counts it with a popcount.
 */
export interface DenseCodes {
  /** The frequent codes, ascending. */
  readonly codes: Uint32Array
  /** Their bitsets, one after the other in the order of `codes` (`wordsFor(size)` words each). */
  readonly bits: Uint32Array
}

/** A code is dense from this share of the rows on (a bitset then costs less than its row list). */
export const DENSE_SHARE = 16

/**
 * A categorical column: `codes[row]` indexes `values`; code 0 is reserved for "absent" and
 * `values[0]` is `""`. `rows` lists, for each code, the rows that carry it (file order).
 */
export interface Dimension {
  readonly values: ReadonlyArray<string>
  readonly codes: Uint8Array | Uint16Array | Uint32Array
  readonly rows: Postings
  readonly dense: DenseCodes
}

/** The bitset of a dense code of a column, or undefined when the code is not dense. */
export const denseBits = (dense: DenseCodes, code: number, words: number): Uint32Array | undefined => {
  const i = lowerBound(dense.codes, code)
  return i < dense.codes.length && dense.codes[i] === code ? dense.bits.subarray(i * words, (i + 1) * words) : undefined
}

/** First index from `from` of a sorted array whose value is not less than `value`. */
export const lowerBound = <T extends string | number>(sorted: ArrayLike<T>, value: T, from = 0): number => {
  let lo = from
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
