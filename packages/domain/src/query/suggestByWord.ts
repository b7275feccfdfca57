/**
 * The drive of a multi-word suggestion by the postings of its rarest whole word (fame order), for a
 * rare combination of frequent words (`suggest.ts`). Two scans answer it alike:
 *
 * - **by length** (`scanByLength`): for each length of the completions of the last word, shortest
 *   first, the rows of the completions of that length are marked in a bitset, and the rarest word's
 *   postings are read until `limite` rows are found. It reads the postings and the bitset, both
 *   arrays read in order or small enough for the processor's caches, and no name's tokens unless
 *   the query has more than one whole word.
 * - **by tokens** (`scanByTokens`): one pass over the rarest word's postings, reading each row's
 *   tokens for its shortest completion. Three reads at random in arrays of tens of MB per row: the
 *   first query of a kind paid for them in cache misses, 5–15 ms at 4.45 M rows against 2 warm
 *   (`l'o`, `mirage lun`; issue 24 item 6). It answers when marking would cost more than it.
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import { wordsFor } from "../dataset/bits.ts"
import { dictionarySize, dictionaryValue } from "../dataset/columns.ts"
import { hasTokenIn, prefixRange, prefixSet, tokensOfLength } from "./nameTokens.ts"

export interface Suggestion {
  readonly row: number
  /** In (0, 1]; 1 when the last word of the query is a whole word of the name. */
  readonly score: number
}

/** Work done by the last `suggest` call: for tests (cost bound) and metrics. */
export interface SuggestStats {
  strategy: string
  /** Postings entries read. */
  visited: number
  /** Candidate tokens opened. */
  tokens: number
}

/** The score of a completion of `length` letters of `last`. */
export const scoreOf = (last: string, length: number): number => (length === last.length ? 1 : last.length / length)

/**
 * Whether `row`'s name holds every one of `tokens`. A function of the module, not a closure made by
 * each request: V8's optimised code inlines a closure it has seen and holds it weakly, so the first
 * full collection after the warm-up threw that code away (issue 24 item 6).
 */
export const holdsEvery = (data: DatasetData, row: number, tokens: ReadonlyArray<number>): boolean => {
  for (const t of tokens) if (!hasTokenIn(data, row, t, t + 1)) return false
  return true
}

/**
 * What reading one row's tokens costs against marking or reading one posting: the scan by length
 * gives up once it would have done that many times the rarest word's postings in marks and reads.
 */
const TOKEN_READ_COST = 8

/** One bitset of the rows per thread and Dataset, clear between scans (each scan clears what it set). */
const marks = new WeakMap<DatasetData, Uint32Array>()

const marksOf = (data: DatasetData): Uint32Array => {
  let bits = marks.get(data)
  if (bits === undefined) marks.set(data, bits = new Uint32Array(wordsFor(data.size)))
  return bits
}

/** Sets (`on`) or clears the bits of the rows of `tokens`' postings; answers how many postings it read. */
const markPostings = (data: DatasetData, bits: Uint32Array, tokens: ReadonlyArray<number>, on: boolean): number => {
  const { offsets, rows } = data.names.rows
  let read = 0
  for (const t of tokens) {
    const end = offsets[t + 1]
    for (let i = offsets[t]; i < end; i++) {
      const row = rows[i]
      if (on) bits[row >>> 5] |= 1 << (row & 31)
      else bits[row >>> 5] = 0
    }
    read += end - offsets[t]
  }
  return read
}

/**
 * The scan by length, or `undefined` when it gave up (its marks and reads past `TOKEN_READ_COST`
 * times the rarest word's postings) before answering.
 */
const scanByLength = (
  data: DatasetData,
  rarest: number,
  exact: ReadonlyArray<number>,
  last: string,
  max: number,
  st: SuggestStats,
  admitted: Uint8Array | undefined
): Array<Suggestion> | undefined => {
  const names = data.names
  const { offsets, rows } = names.rows
  const sexes = data.sexe.codes
  const start = offsets[rarest]
  const end = offsets[rarest + 1]
  const others = exact.filter((t) => t !== rarest)
  const limit = TOKEN_READ_COST * (end - start)
  const bits = marksOf(data)
  const results: Array<Suggestion> = []
  // Rows taken at a shorter length: every one of them was, as a length is left only once read whole.
  const taken = new Set<number>()
  let work = 0
  const maxLength = names.byLength.offsets.length - 2
  for (let length = last.length; length <= maxLength && results.length < max; length++) {
    const completions = tokensOfLength(names, length, last)
    if (completions.length === 0) continue
    let marked = 0
    for (const t of completions) marked += offsets[t + 1] - offsets[t]
    if (work + 2 * marked + (end - start) > limit) return undefined
    st.tokens += completions.length
    markPostings(data, bits, completions, true)
    const score = scoreOf(last, length)
    let i = start
    for (; i < end && results.length < max; i++) {
      const row = rows[i]
      if (((bits[row >>> 5] >>> (row & 31)) & 1) === 0) continue
      if (taken.has(row)) continue
      if (admitted !== undefined && admitted[sexes[row]] === 0) continue
      if (others.length > 0 && !holdsEvery(data, row, others)) continue
      taken.add(row)
      results.push({ row, score })
    }
    markPostings(data, bits, completions, false)
    work += 2 * marked + (i - start)
    st.visited += i - start
  }
  return results
}

/** The rows a scan by tokens reads in one block, and its scratch arrays (one set per thread). */
const BLOCK = 256
const blockPlaces = new Uint32Array(BLOCK)
const blockKeys = new Uint32Array(BLOCK)
const blockTokens = new Uint32Array(BLOCK)

/**
 * The scan by tokens: the rows of the rarest whole word that hold every whole word and a word
 * beginning with `last`, each under its best score (its shortest such word): the first `max` of
 * each length are kept, then taken shortest first.
 */
const scanByTokens = (
  data: DatasetData,
  rarest: number,
  exact: ReadonlyArray<number>,
  last: string,
  max: number,
  st: SuggestStats,
  admitted: Uint8Array | undefined
): Array<Suggestion> => {
  const { tokens, lengths, rows: postings, keyTokens } = data.names
  const sexes = data.sexe.codes
  const [lo, hi] = prefixRange(tokens, last)
  if (lo === hi) return []
  let shortest = Infinity
  for (let t = lo; t < hi; t++) if (lengths[t] < shortest) shortest = lengths[t]
  const wanted = Uint32Array.from(exact).sort()
  // Most rows of a frequent whole word lack the completion: when the prefix has a bitset, one bit says so.
  const completions = prefixSet(data, lo, hi)?.bits
  const buckets = new Map<number, Array<number>>()
  const { offsets: keyOffsets, rows: keyRows } = keyTokens
  const nameKey = data.nameKey
  const start = postings.offsets[rarest]
  const end = postings.offsets[rarest + 1]
  let i = start
  // A block's reads of one array at a time (its rows' keys, then their tokens' places), each
  // independent of the others, so that the processor has many cache misses in flight at once
  // instead of one row's three after one another.
  scan: for (let base = start; base < end; base += BLOCK) {
    const blockEnd = Math.min(end, base + BLOCK)
    let taken = 0
    for (let at = base; at < blockEnd; at++) {
      const row = postings.rows[at]
      if (completions !== undefined && ((completions[row >>> 5] >>> (row & 31)) & 1) === 0) continue
      if (admitted !== undefined && admitted[sexes[row]] === 0) continue
      blockPlaces[taken] = at
      blockKeys[taken++] = nameKey[row]
    }
    for (let k = 0; k < taken; k++) blockTokens[k] = keyOffsets[blockKeys[k]]
    for (let k = 0; k < taken; k++) {
      const key = blockKeys[k]
      // The name's tokens ascending: the whole words found in order, the shortest completion of `last`.
      let found = 0
      let length = Infinity
      for (let j = blockTokens[k]; j < keyOffsets[key + 1]; j++) {
        const t = keyRows[j]
        if (found < wanted.length && t === wanted[found]) found++
        if (t >= lo && t < hi && lengths[t] < length) length = lengths[t]
      }
      if (found < wanted.length || length === Infinity) continue
      const row = postings.rows[blockPlaces[k]]
      let bucket = buckets.get(length)
      if (bucket === undefined) buckets.set(length, bucket = [])
      if (bucket.length < max) bucket.push(row)
      // Nothing later in fame order can outrank a full bucket of the best possible score.
      if (length === shortest && bucket.length === max) {
        i = blockPlaces[k] + 1
        break scan
      }
    }
    i = blockEnd
  }
  st.visited += i - start
  const results: Array<Suggestion> = []
  for (const length of [...buckets.keys()].sort((a, b) => a - b)) {
    for (const row of buckets.get(length) ?? []) {
      if (results.length === max) return results
      results.push({ row, score: scoreOf(last, length) })
    }
  }
  return results
}

/**
 * The rows of the rarest whole word `rarest` (one of `exact`, the query's whole words' tokens) that
 * hold every whole word and a word beginning with `last`, best first, at most `max`; `st.strategy`
 * says which scan answered.
 */
export const scanWord = (
  data: DatasetData,
  rarest: number,
  exact: ReadonlyArray<number>,
  last: string,
  max: number,
  st: SuggestStats,
  admitted: Uint8Array | undefined
): Array<Suggestion> => {
  const byLength = scanByLength(data, rarest, exact, last, max, st, admitted)
  if (byLength !== undefined) {
    st.strategy += " by length"
    return byLength
  }
  st.strategy += " by tokens"
  return scanByTokens(data, rarest, exact, last, max, st, admitted)
}

/** The warm-up's whole word has about this share of the rows. */
const WARM_WORD_SHARE = 256

/** The warm-up's page: the largest, so that a scan reads far before it is full. */
const MAX_WARM_ROWS = 100

/**
 * Each scan run in this thread before its first request, with and without sexes, and the marks
 * made: the first query of a kind after ready otherwise ran the scan's loops in the interpreter
 * first, `l'o` 33 ms against 1–2 warm (issue 24 item 6). The whole word is the token whose
 * postings are nearest `size / WARM_WORD_SHARE` (17 000 at full scale), the completions
 * those of the most frequent other token, its first three letters and its first.
 */
export const prepareWordScans = (data: DatasetData): void => {
  const { offsets } = data.names.rows
  const count = dictionarySize(data.names.tokens)
  const target = data.size / WARM_WORD_SHARE
  let word = -1
  let other = -1
  for (let t = 0; t < count; t++) {
    const rows = offsets[t + 1] - offsets[t]
    if (word < 0 || Math.abs(rows - target) < Math.abs(offsets[word + 1] - offsets[word] - target)) word = t
  }
  for (let t = 0; t < count; t++) {
    if (t !== word && (other < 0 || offsets[t + 1] - offsets[t] > offsets[other + 1] - offsets[other])) other = t
  }
  if (word < 0 || other < 0) return
  const completion = dictionaryValue(data.names.tokens, other)
  const st: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
  const everySex = new Uint8Array(dictionarySize(data.sexe.values)).fill(1)
  for (const last of [completion.slice(0, 3), completion.slice(0, 1)]) {
    for (const admitted of [undefined, everySex]) {
      scanByLength(data, word, [word], last, MAX_WARM_ROWS, st, admitted)
      scanByTokens(data, word, [word], last, MAX_WARM_ROWS, st, admitted)
    }
  }
}
