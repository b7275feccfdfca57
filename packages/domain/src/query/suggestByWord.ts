/**
 * The drive of a multi-word suggestion by the postings of its rarest whole word (fame order), for a
 * rare combination of frequent words (`suggest.ts`). Three scans answer it alike:
 *
 * - **by bits** (`scanByBits`), when the rarest whole word is frequent enough for the Dataset to
 *   keep its rows as a bitset (`prefixSets`): for each length of the completions of the last word,
 *   shortest first, their postings are read, one bit telling whether a row holds the whole word.
 *   It reads the completions' postings, never the whole word's, which the scan by length read once
 *   per length: `l'o` 0.4 ms instead of 2.6 (216 000 postings of `L` read for the 55 000 rows of
 *   `O`), `du m` 1.4 instead of 10 (884 000 of `DU`, twice), warm at 4.45 M rows.
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
import { hasBit, wordsFor } from "../dataset/bits.ts"
import { dictionarySize, dictionaryValue } from "../dataset/columns.ts"
import { fameCompare, hasTokenIn, prefixRange, prefixSet, tokensOfLength } from "./nameTokens.ts"

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

/**
 * What a scan by the rarest whole word is asked: the page (`max` rows, of a sex `admitted` when
 * given) of the rows of `rarest` (one of `exact`, the query's whole words' tokens) that hold every
 * whole word and a word beginning with `last`.
 */
export interface WordQuery {
  readonly rarest: number
  readonly exact: ReadonlyArray<number>
  readonly last: string
  readonly max: number
  readonly admitted: Uint8Array | undefined
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
 * What reading one row's tokens costs against marking or reading one posting, about: the scan by
 * length runs only when its most (every completion's rows marked and cleared, the whole word's
 * postings read once per length) is at most that many times the whole word's postings, so that it
 * never gives up after it began. After the caches were swept (`scratch-lead/suggestevict2.ts`, 4.45 M
 * rows), 16 against a bound of 8 checked as it went: `l'océan du pe` 0.4 ms by length against
 * 1.2–1.8 by tokens after a length read in vain; `star d` and `l'or d`, which had begun by length
 * and given up at 16, go by tokens at once as they did at 8.
 */
const TOKEN_READ_COST = 16

/** The tokens beginning with a query's last word (contiguous, and so are their postings), and their lengths ascending. */
interface Completions {
  readonly lo: number
  readonly hi: number
  readonly lengths: ReadonlyArray<number>
}

/** The completions of `last`, or undefined when no token begins with it. */
const completionsOf = (data: DatasetData, last: string): Completions | undefined => {
  const [lo, hi] = prefixRange(data.names.tokens, last)
  if (lo === hi) return undefined
  const { lengths: lengthOf, byLength } = data.names
  // A flag per token length (a few dozen): a range of thousands of tokens is one pass of integer writes.
  const seen = new Uint8Array(byLength.offsets.length)
  for (let t = lo; t < hi; t++) seen[lengthOf[t]] = 1
  const lengths: Array<number> = []
  for (let length = 0; length < seen.length; length++) if (seen[length] === 1) lengths.push(length)
  return { lo, hi, lengths }
}

/** One bitset of the rows per thread and Dataset, clear between scans (each scan clears what it set). */
const marks = new WeakMap<DatasetData, Uint32Array>()

const marksOf = (data: DatasetData): Uint32Array => {
  let bits = marks.get(data)
  if (bits === undefined) marks.set(data, bits = new Uint32Array(wordsFor(data.size)))
  return bits
}

/*
 * The loops below are each the whole of a small function, called once per token, length or block:
 * V8 then compiles each on entry once it is hot. A loop nested in a longer function was compiled
 * while it ran (on stack), and every exit from it, at each block or length, threw that code away
 * ("exit from OSR'd inner loop" in `--trace-deopt`): the first calls of a kind took 3–9 ms against
 * 0.6–1 warm (issue 24 item 6).
 */

/**
 * Sets the bits of `rows[from..to)`: `setBits` of `bits.ts` over a range, without a subarray per token
 * (a one-letter completion has thousands). `bits.ts` is left as it is: it is part of the Dataset
 * builder's code signature, and changing it would make every snapshot stale.
 */
const setRows = (bits: Uint32Array, rows: Uint32Array, from: number, to: number): void => {
  for (let i = from; i < to; i++) {
    const row = rows[i]
    bits[row >>> 5] |= 1 << (row & 31)
  }
}

/** Clears the words of the bits of `rows[from..to)`: the bitset was clear but for those. */
const clearRows = (bits: Uint32Array, rows: Uint32Array, from: number, to: number): void => {
  for (let i = from; i < to; i++) bits[rows[i] >>> 5] = 0
}

/**
 * The rows of `postings.rows[from..to)` set in `bits` (a length's completions marked, or a whole
 * word's rows), not yet `taken`, of a sex `admitted`, that hold `others`, appended to `found` (row
 * numbers only: an array of one kind of element whatever it holds) until it holds `max`; answers
 * where it stopped.
 */
const takeMarked = (
  data: DatasetData,
  bits: Uint32Array,
  from: number,
  to: number,
  taken: Set<number>,
  admitted: Uint8Array | undefined,
  others: ReadonlyArray<number>,
  found: Array<number>,
  max: number
): number => {
  const rows = data.names.rows.rows
  const sexes = data.sexe.codes
  let i = from
  for (; i < to && found.length < max; i++) {
    const row = rows[i]
    if (!hasBit(bits, row)) continue
    if (taken.has(row)) continue
    if (admitted !== undefined && admitted[sexes[row]] === 0) continue
    if (others.length > 0 && !holdsEvery(data, row, others)) continue
    taken.add(row)
    found.push(row)
  }
  return i
}

/**
 * The scan by length, or `undefined` when its most would pass `TOKEN_READ_COST` times the rarest
 * word's postings (then it has read nothing). Only the lengths some completion has are read.
 */
const scanByLength = (data: DatasetData, query: WordQuery, completions: Completions, st: SuggestStats): Array<Suggestion> | undefined => {
  const { rarest, exact, last, max, admitted } = query
  const names = data.names
  const { offsets, rows } = names.rows
  const start = offsets[rarest]
  const end = offsets[rarest + 1]
  const marks = 2 * (offsets[completions.hi] - offsets[completions.lo])
  if (marks + completions.lengths.length * (end - start) > TOKEN_READ_COST * (end - start)) return undefined
  const others = exact.filter((t) => t !== rarest)
  const bits = marksOf(data)
  const results: Array<Suggestion> = []
  // Rows taken at a shorter length: every one of them was, as a length is left only once read whole.
  const taken = new Set<number>()
  for (const length of completions.lengths) {
    if (results.length === max) break
    const ofLength = tokensOfLength(names, length, last)
    st.tokens += ofLength.length
    for (const t of ofLength) setRows(bits, rows, offsets[t], offsets[t + 1])
    const found: Array<number> = []
    const reached = takeMarked(data, bits, start, end, taken, admitted, others, found, max - results.length)
    for (const t of ofLength) clearRows(bits, rows, offsets[t], offsets[t + 1])
    const score = scoreOf(last, length)
    for (const row of found) results.push({ row, score })
    st.visited += reached - start
  }
  return results
}

/**
 * The scan by bits: the rows of each length's completions that hold the whole word (`wordBits`).
 * Each completion's postings are in fame order, so each is read only until it gave the rest of the
 * page; several completions of one length are then merged by fame. A row read past the page at
 * that length is marked taken but never offered again: the page is full after it.
 */
const scanByBits = (data: DatasetData, query: WordQuery, completions: Completions, wordBits: Uint32Array, st: SuggestStats): Array<Suggestion> => {
  const { rarest, exact, last, max, admitted } = query
  const names = data.names
  const { offsets } = names.rows
  const others = exact.filter((t) => t !== rarest)
  const results: Array<Suggestion> = []
  const taken = new Set<number>()
  for (const length of completions.lengths) {
    const rest = max - results.length
    if (rest === 0) break
    const ofLength = tokensOfLength(names, length, last)
    st.tokens += ofLength.length
    const found: Array<number> = []
    for (const t of ofLength) {
      const reached = takeMarked(data, wordBits, offsets[t], offsets[t + 1], taken, admitted, others, found, found.length + rest)
      st.visited += reached - offsets[t]
    }
    if (ofLength.length > 1) found.sort((a, b) => fameCompare(data, a, b))
    const score = scoreOf(last, length)
    for (let k = 0; k < found.length && k < rest; k++) results.push({ row: found[k], score })
  }
  return results
}

/** The rows a scan by tokens reads in one block. */
const BLOCK = 256

/**
 * The scan by tokens: the rows of the rarest whole word that hold every whole word and a word
 * beginning with `last`, each under its best score (its shortest such word): the first `max` of
 * each length are kept, then taken shortest first. A block's reads go one array at a time (its
 * rows' keys, then their tokens' places, then the tokens), each independent of the others, so that
 * the processor has many cache misses in flight at once instead of one row's three one after another.
 */
class TokenScan {
  readonly #data: DatasetData
  readonly #lo: number
  readonly #hi: number
  readonly #shortest: number
  readonly #wanted: Uint32Array
  readonly #completions: Uint32Array | undefined
  readonly #admitted: Uint8Array | undefined
  readonly #max: number
  readonly #buckets = new Map<number, Array<number>>()
  readonly #places = new Uint32Array(BLOCK)
  readonly #keys = new Uint32Array(BLOCK)
  readonly #tokens = new Uint32Array(BLOCK)

  constructor(data: DatasetData, { lo, hi, lengths }: Completions, exact: ReadonlyArray<number>, max: number, admitted: Uint8Array | undefined) {
    this.#data = data
    this.#lo = lo
    this.#hi = hi
    this.#shortest = lengths[0]
    this.#wanted = Uint32Array.from(exact).sort()
    // Most rows of a frequent whole word lack the completion: when the prefix has a bitset, one bit says so.
    this.#completions = prefixSet(data, lo, hi)?.bits
    this.#admitted = admitted
    this.#max = max
  }

  /** Reads the postings `[from, to)`; answers the place after the row that filled the best bucket, or -1. */
  block(from: number, to: number): number {
    const data = this.#data
    const postings = data.names.rows.rows
    const sexes = data.sexe.codes
    const nameKey = data.nameKey
    const { offsets: keyOffsets } = data.names.keyTokens
    const completions = this.#completions
    const admitted = this.#admitted
    const places = this.#places
    const keys = this.#keys
    let taken = 0
    for (let at = from; at < to; at++) {
      const row = postings[at]
      if (completions !== undefined && !hasBit(completions, row)) continue
      if (admitted !== undefined && admitted[sexes[row]] === 0) continue
      places[taken] = at
      keys[taken++] = nameKey[row]
    }
    const tokens = this.#tokens
    for (let k = 0; k < taken; k++) tokens[k] = keyOffsets[keys[k]]
    for (let k = 0; k < taken; k++) {
      const length = this.#completionOf(keys[k], tokens[k])
      if (length === Infinity) continue
      let bucket = this.#buckets.get(length)
      if (bucket === undefined) this.#buckets.set(length, bucket = [])
      if (bucket.length < this.#max) bucket.push(postings[places[k]])
      // Nothing later in fame order can outrank a full bucket of the best possible score.
      if (length === this.#shortest && bucket.length === this.#max) return places[k] + 1
    }
    return -1
  }

  /** The shortest completion among a key's tokens (from `first`, ascending) when it holds every whole word, else Infinity. */
  #completionOf(key: number, first: number): number {
    const { lengths, keyTokens } = this.#data.names
    const end = keyTokens.offsets[key + 1]
    const rows = keyTokens.rows
    const wanted = this.#wanted
    let found = 0
    let length = Infinity
    for (let j = first; j < end; j++) {
      const t = rows[j]
      if (found < wanted.length && t === wanted[found]) found++
      if (t >= this.#lo && t < this.#hi && lengths[t] < length) length = lengths[t]
    }
    return found < wanted.length ? Infinity : length
  }

  /** The buckets' rows, shortest completion first, at most `max`. */
  results(last: string): Array<Suggestion> {
    const results: Array<Suggestion> = []
    for (const length of [...this.#buckets.keys()].sort((a, b) => a - b)) {
      for (const row of this.#buckets.get(length) ?? []) {
        if (results.length === this.#max) return results
        results.push({ row, score: scoreOf(last, length) })
      }
    }
    return results
  }
}

const scanByTokens = (data: DatasetData, query: WordQuery, completions: Completions, st: SuggestStats): Array<Suggestion> => {
  const { rarest, exact, last, max, admitted } = query
  const scan = new TokenScan(data, completions, exact, max, admitted)
  const { offsets } = data.names.rows
  const start = offsets[rarest]
  const end = offsets[rarest + 1]
  let reached = end
  for (let from = start; from < end && reached === end; from += BLOCK) {
    const stopped = scan.block(from, Math.min(end, from + BLOCK))
    if (stopped >= 0) reached = stopped
  }
  st.visited += reached - start
  return scan.results(last)
}

/** The page `query` asks for, best first; `st.strategy` says which scan answered. */
export const scanWord = (data: DatasetData, query: WordQuery, st: SuggestStats): Array<Suggestion> => {
  const completions = completionsOf(data, query.last)
  if (completions === undefined) return []
  const wordSet = prefixSet(data, query.rarest, query.rarest + 1)
  if (wordSet !== undefined) {
    st.strategy += " by bits"
    return scanByBits(data, query, completions, wordSet.bits, st)
  }
  const byLength = scanByLength(data, query, completions, st)
  if (byLength !== undefined) {
    st.strategy += " by length"
    return byLength
  }
  st.strategy += " by tokens"
  return scanByTokens(data, query, completions, st)
}

/** The warm-up's whole word and completion have about this share of the rows each. */
const WARM_WORD_SHARE = 256

/** The warm-up's page: the largest, so that a scan reads far before it is full. */
const MAX_WARM_ROWS = 100

/**
 * Each scan run in this thread before its first request, with and without sexes, and the marks
 * made: the first query of a kind after ready otherwise ran the scan's loops in the interpreter
 * first, `l'o` 33 ms against 1–2 warm (issue 24 item 6). The whole word and the completion are the
 * two tokens whose postings are nearest `size / WARM_WORD_SHARE` (17 000 at full scale): the
 * completion whole (its rows marked, then the whole word's read) and its first letter (too many
 * rows to mark: the scan by length gives up, the scan by tokens reads the whole word's), with the
 * whole word alone and with the completion as a second whole word. The scan by bits reads the same
 * completions for the most frequent whole word, when it has its bitset.
 */
export const prepareWordScans = (data: DatasetData): void => {
  const { offsets } = data.names.rows
  const target = data.size / WARM_WORD_SHARE
  const count = (t: number) => offsets[t + 1] - offsets[t]
  const distance = (t: number) => Math.abs(count(t) - target)
  let word = -1
  let completion = -1
  let frequent = -1
  for (let t = 0; t < dictionarySize(data.names.tokens); t++) {
    if (frequent < 0 || count(t) > count(frequent)) frequent = t
    if (word < 0 || distance(t) < distance(word)) {
      completion = word
      word = t
    } else if (completion < 0 || distance(t) < distance(completion)) completion = t
  }
  if (word < 0 || completion < 0) return
  const frequentSet = prefixSet(data, frequent, frequent + 1)
  const text = dictionaryValue(data.names.tokens, completion)
  const st: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
  const everySex = new Uint8Array(dictionarySize(data.sexe.values)).fill(1)
  for (const last of [text, text.slice(0, 1)]) {
    const completions = completionsOf(data, last)
    if (completions === undefined) continue
    for (const admitted of [undefined, everySex]) {
      // One whole word, and two (the rows then tested for the other).
      for (const other of [[], [completion]]) {
        const query: WordQuery = { rarest: word, exact: [word, ...other], last, max: MAX_WARM_ROWS, admitted }
        scanByLength(data, query, completions, st)
        scanByTokens(data, query, completions, st)
        if (frequentSet !== undefined) {
          scanByBits(data, { ...query, rarest: frequent, exact: [frequent, ...other] }, completions, frequentSet.bits, st)
        }
      }
    }
  }
}
