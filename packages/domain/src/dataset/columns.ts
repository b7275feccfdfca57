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

// ignoreBOM: a dictionary value starting with U+FEFF keeps it (the builder decodes values so).
const exactDecoder = new TextDecoder("utf-8", { ignoreBOM: true })

/**
 * The distinct values of a column, code → value (code 0, "absent", is `""`), as UTF-8 in one
 * buffer: typed arrays, so one copy in shared memory serves every thread (and is read from the
 * snapshot without a copy), where arrays of strings were decoded and copied into each thread's
 * heap. A value is decoded where a response needs it. A race field polluted by race times has
 * hundreds of thousands of values.
 */
export type Dictionary = StringArena

/** Codes of a dictionary, code 0 included. */
export const dictionarySize = (dictionary: Dictionary): number => dictionary.offsets.length - 1

/** The value of `code`, exactly as the builder was given it. */
export const dictionaryValue = (dictionary: Dictionary, code: number): string => {
  const start = dictionary.offsets[code]
  const end = dictionary.offsets[code + 1]
  return start === end ? "" : exactDecoder.decode(dictionary.bytes.subarray(start, end))
}

/** Every value, code 0 included (refusal hints, tests). */
export const dictionaryValues = (dictionary: Dictionary): Array<string> =>
  Array.from({ length: dictionarySize(dictionary) }, (_, code) => dictionaryValue(dictionary, code))

/**
 * The UTF-8 of `a[i..aEnd)` and of `b[j..bEnd)` compared as JavaScript compares the strings they
 * encode (UTF-16 code units), without decoding them: UTF-8 bytes compare in code point order, which
 * differs only where a character above U+FFFF (surrogates, D800–DBFF, in UTF-16) meets one of
 * U+E000–U+FFFF.
 */
export const compareUtf8 = (a: Uint8Array, i: number, aEnd: number, b: Uint8Array, j: number, bEnd: number): number => {
  while (i < aEnd && j < bEnd) {
    const x = a[i]
    const y = b[j]
    if (x !== y) {
      // A differing lead byte: a 4-byte sequence (≥ 0xF0) against a 3-byte one from U+E000 (0xEE, 0xEF).
      if ((x >= 0xf0 && (y === 0xee || y === 0xef)) || (y >= 0xf0 && (x === 0xee || x === 0xef))) return y - x
      return x - y
    }
    i++
    j++
  }
  return (aEnd - i) - (bEnd - j)
}

/** The values of codes `a` and `b` compared as JavaScript compares the strings (see `compareUtf8`). */
export const compareDictionaryValues = ({ bytes, offsets }: Dictionary, a: number, b: number): number =>
  compareUtf8(bytes, offsets[a], offsets[a + 1], bytes, offsets[b], offsets[b + 1])

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
 * Values a filter names (case and accents folded), as a dictionary and its folded order: the codes
 * 1.. sorted by `foldValue` of their value (code-unit order), ties by code, so that the codes of a
 * folded value are found by binary search in shared memory instead of a map built in each thread.
 */
export interface Vocabulary {
  readonly values: Dictionary
  readonly folded: Uint32Array
}

/**
 * A categorical column: `codes[row]` indexes `values`; code 0 is reserved for "absent" and
 * value 0 is `""`. `rows` lists, for each code, the rows that carry it (file order).
 */
export interface Dimension extends Vocabulary {
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
