/**
 * The bitsets a Dataset keeps for its queries, built once at load (never on first use: the first
 * request after a start costs what any other does, and workers sharing the Dataset's buffers find
 * them ready): frequent codes, cumulative birth-year sets, and frequent word prefixes.
 */
import { countBits, setBits, wordsFor } from "../bits.ts"
import { DENSE_SHARE, type DenseCodes, type Postings, postingsCount, postingsOf } from "../columns.ts"
import type { PrefixSets } from "../DatasetData.ts"

/** Bitsets of the codes holding at least 1/DENSE_SHARE of the rows. */
export const denseCodes = (rows: Postings, size: number): DenseCodes => {
  const codes: Array<number> = []
  for (let code = 0; code + 1 < rows.offsets.length; code++) {
    if (postingsCount(rows, code) * DENSE_SHARE >= size && size > 0) codes.push(code)
  }
  const words = wordsFor(size)
  const bits = new Uint32Array(codes.length * words)
  codes.forEach((code, i) => setBits(bits.subarray(i * words, (i + 1) * words), postingsOf(rows, code)))
  return { codes: Uint32Array.from(codes), bits }
}

/** Birth years get cumulative bitsets up to this many distinct years (0.53 MiB each at 4.45 M rows). */
export const MAX_CUMULATIVE_CODES = 80

/**
 * Cumulative bitsets of a chronological code column: set k holds the rows whose code lies in
 * [1, k + 1] (code 0, no year, in none), so that any range of codes is one or two word passes.
 * Empty past MAX_CUMULATIVE_CODES codes.
 */
export const cumulativeCodes = (codes: ArrayLike<number>, codeCount: number, size: number): Uint32Array => {
  const sets = codeCount - 1
  if (sets > MAX_CUMULATIVE_CODES) return new Uint32Array(0)
  const words = wordsFor(size)
  const bits = new Uint32Array(sets * words)
  for (let row = 0; row < size; row++) {
    const code = codes[row]
    if (code !== 0) bits[(code - 1) * words + (row >>> 5)] |= 1 << (row & 31)
  }
  for (let k = 1; k < sets; k++) {
    for (let w = 0, at = k * words; w < words; w++, at++) bits[at] |= bits[at - words]
  }
  return bits
}

/**
 * A prefix's rows get a bitset when they are at least 1/PREFIX_SHARE of the rows; below, the
 * postings of its tokens are few enough to be set into a bitset (or listed) per query.
 */
export const PREFIX_SHARE = 32

/** At most this many prefix bitsets are kept, the largest first: 0.53 MiB each at 4.45 M rows. */
export const MAX_PREFIX_SETS = 96

/**
 * Bitsets of the token ranges (the tokens sharing a prefix, contiguous in sorted order) whose
 * rows are at least 1/PREFIX_SHARE of all, at every prefix length, and of the whole words (one
 * token) as frequent: a query's frequent whole word is then one bit per row it tests
 * (`suggestByWord.ts`). A range reached several ways (`D`, `DU` when every D-word is a DU-word) is
 * kept once. Only ranges inside a large one can be large: the walk descends from the whole token
 * list, one letter at a time.
 */
export const prefixSets = (tokens: ReadonlyArray<string>, postings: Postings, size: number): PrefixSets => {
  const words = wordsFor(size)
  const threshold = Math.max(1, Math.ceil(size / PREFIX_SHARE))
  const candidates: Array<{ readonly lo: number; readonly hi: number; readonly bits: Uint32Array; readonly count: number }> = []
  const seen = new Set<number>()
  const large = (lo: number, hi: number): boolean => postings.offsets[hi] - postings.offsets[lo] >= threshold
  const keep = (lo: number, hi: number): void => {
    const key = lo * (tokens.length + 1) + hi
    if (seen.has(key)) return
    seen.add(key)
    const bits = new Uint32Array(words)
    setBits(bits, postings.rows.subarray(postings.offsets[lo], postings.offsets[hi]))
    const count = countBits(bits)
    if (count >= threshold) candidates.push({ lo, hi, bits, count })
  }
  for (let t = 0; t < tokens.length; t++) if (large(t, t + 1)) keep(t, t + 1)
  // Ranges of tokens sharing their first `length` characters, to split on the next one.
  let level: Array<readonly [number, number]> = large(0, tokens.length) ? [[0, tokens.length]] : []
  for (let length = 1; level.length > 0; length++) {
    const next: Array<readonly [number, number]> = []
    for (const [from, to] of level) {
      // Tokens of exactly `length - 1` characters (the prefix itself) sort first and go no deeper.
      let lo = from
      while (lo < to && tokens[lo].length < length) lo++
      while (lo < to) {
        const prefix = tokens[lo].slice(0, length)
        let hi = lo + 1
        while (hi < to && tokens[hi].startsWith(prefix)) hi++
        if (large(lo, hi)) {
          next.push([lo, hi])
          keep(lo, hi)
        }
        lo = hi
      }
    }
    level = next
  }
  const kept = candidates.sort((a, b) => b.count - a.count).slice(0, MAX_PREFIX_SETS).sort((a, b) => a.lo - b.lo || a.hi - b.hi)
  const ranges = new Uint32Array(2 * kept.length)
  const counts = new Uint32Array(kept.length)
  const bits = new Uint32Array(kept.length * words)
  kept.forEach((set, i) => {
    ranges[2 * i] = set.lo
    ranges[2 * i + 1] = set.hi
    counts[i] = set.count
    bits.set(set.bits, i * words)
  })
  return { ranges, counts, bits }
}

/** Token ids grouped by token length, in token order within a length. */
export const tokensByLength = (tokens: ReadonlyArray<string>): Postings => {
  let maxLength = 0
  for (const token of tokens) if (token.length > maxLength) maxLength = token.length
  const offsets = new Uint32Array(maxLength + 2)
  for (const token of tokens) offsets[token.length + 1]++
  for (let l = 0; l <= maxLength; l++) offsets[l + 1] += offsets[l]
  const cursor = offsets.slice(0, maxLength + 1)
  const rows = new Uint32Array(tokens.length)
  for (let t = 0; t < tokens.length; t++) rows[cursor[tokens[t].length]++] = t
  return { offsets, rows }
}

/** Per-key lists re-indexed by the keys' ranks (`rank[key]`), each list sorted ascending. */
export const byRank = (lists: Postings, rank: Uint32Array): Postings => {
  const keys = rank.length
  const offsets = new Uint32Array(keys + 1)
  for (let key = 0; key < keys; key++) offsets[rank[key] + 1] = lists.offsets[key + 1] - lists.offsets[key]
  for (let r = 0; r < keys; r++) offsets[r + 1] += offsets[r]
  const rows = new Uint32Array(lists.rows.length)
  for (let key = 0; key < keys; key++) {
    const from = lists.offsets[key]
    const length = lists.offsets[key + 1] - from
    const at = offsets[rank[key]]
    rows.set(lists.rows.subarray(from, from + length), at)
    if (length > 1) rows.subarray(at, at + length).sort()
  }
  return { offsets, rows }
}
