/**
 * GET /v1/search: name suggestions, ranked, cost bounded by `limite` (design 2.2).
 *
 * The query's folded words: every word but the last must equal a whole word of the name, the last
 * is a word prefix (each word is matched on its own: `JOLI JO` matches `JOLI`). A row's score
 * comes from the last word: 1 when it equals a word of the name, else |last| / |shortest word of
 * the name it begins| (in (0, 1), higher for shorter completions). Ties: fame order (more direct
 * descendants first, then folded name, then file order), the order of the token postings.
 *
 * Driving: tokens beginning with the last word are visited by length, shortest first (score
 * descending), through the tokens grouped by length (`TokenIndex.byLength`); the postings of the
 * tokens of one length are merged by fame with a heap and consumed only until `limite` rows are
 * found, so `q=A` at 4.45 M rows reads about `limite` postings. A multi-word query checks each
 * row against its whole words on the row's tokens (a few integer comparisons); it is driven that
 * way while the matches come often enough, else (a rare combination of frequent words) by the
 * postings of its rarest whole word, in fame order, each kept under its score: its cost is then
 * bounded by that word's rows, never by the last word's.
 *
 * With `sexes` (the `sexe` parameter, resolved as the list's filter), a row of another sex is
 * passed over where it would have been taken: the order is the unfiltered one's, and the rows read
 * grow as the sexes asked are rare among the names (about `limite` / their share).
 */
import { Result } from "effect"
import { dictionarySize } from "../dataset/columns.ts"
import type { DatasetData, TokenIndex } from "../dataset/DatasetData.ts"
import { foldWords } from "../text/fold.ts"
import { parameterRequired, valueNotAdmitted } from "../refusal/messages.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { compareToken, exactToken, hasTokenIn, prefixRange, prefixSet, tokenKey, tokenStartsWith } from "./nameTokens.ts"
import { allowedTable } from "./terms.ts"

export interface Suggestion {
  readonly row: number
  /** In (0, 1]; 1 when the last word of the query is a whole word of the name. */
  readonly score: number
}

export const MIN_SUGGEST_LIMITE = 1
export const MAX_SUGGEST_LIMITE = 100
export const DEFAULT_SUGGEST_LIMITE = 10

/** `limite` of /v1/search: default 10, brought back into 1..100 (never refused). */
export const clampSuggestLimite = (limite: number | undefined): number =>
  limite === undefined || Number.isNaN(limite)
    ? DEFAULT_SUGGEST_LIMITE
    : Math.min(MAX_SUGGEST_LIMITE, Math.max(MIN_SUGGEST_LIMITE, Math.floor(limite)))

/** `q` of /v1/search: required and not blank (a 400 otherwise). Answers q as received. */
export const checkQ = (q: string | undefined): QueryResult<string> =>
  q === undefined || q.trim() === ""
    ? Result.fail(
      new InvalidParameter({
        parametre: "q",
        detail: q === undefined ? parameterRequired("q") : valueNotAdmitted("q", q),
        indice: "le début d'un nom, par exemple q=jappe"
      })
    )
    : Result.succeed(q)

/** Work done by the last `suggest` call: for tests (cost bound) and metrics. */
export interface SuggestStats {
  strategy: string
  /** Postings entries read. */
  visited: number
  /** Candidate tokens opened. */
  tokens: number
}

/** Ids of the tokens of length `length` beginning with `prefix`, in token order. */
const tokensOfLength = (names: TokenIndex, length: number, prefix: string): Array<number> => {
  const { tokens, byLength } = names
  const key = tokenKey(prefix)
  const ids = byLength.rows
  let lo = byLength.offsets[length]
  let hi = byLength.offsets[length + 1]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareToken(tokens, ids[mid], key) < 0) lo = mid + 1
    else hi = mid
  }
  const out: Array<number> = []
  for (let i = lo; i < byLength.offsets[length + 1]; i++) {
    const t = ids[i]
    if (!tokenStartsWith(tokens, t, key)) break
    out.push(t)
  }
  return out
}

// ---------------------------------------------------------------------------------------------

/** Fame order: more direct descendants first, then name rank (folded name, then file order). */
export const fameCompare = (data: DatasetData, a: number, b: number): number => {
  const o = data.progeny.offsets
  const pa = o[a + 1] - o[a]
  const pb = o[b + 1] - o[b]
  return pa !== pb ? pb - pa : data.nameRank[a] - data.nameRank[b]
}

/** Score of the last query word against one word of a name (0 when it is not a prefix). */
export const wordScore = (last: string, word: string): number =>
  !word.startsWith(last) ? 0 : word.length === last.length ? 1 : last.length / word.length

/** A min-heap of postings cursors keyed by the fame of their current row. */
class FameHeap {
  readonly #data: DatasetData
  readonly #rows: Uint32Array
  readonly #pos: Array<number> = []
  readonly #end: Array<number> = []

  constructor(data: DatasetData) {
    this.#data = data
    this.#rows = data.names.rows.rows
  }

  get size(): number {
    return this.#pos.length
  }

  #less(i: number, j: number): boolean {
    return fameCompare(this.#data, this.#rows[this.#pos[i]], this.#rows[this.#pos[j]]) < 0
  }

  #swap(i: number, j: number): void {
    const p = this.#pos[i]
    this.#pos[i] = this.#pos[j]
    this.#pos[j] = p
    const e = this.#end[i]
    this.#end[i] = this.#end[j]
    this.#end[j] = e
  }

  #down(i: number): void {
    const n = this.#pos.length
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < n && this.#less(l, m)) m = l
      if (r < n && this.#less(r, m)) m = r
      if (m === i) return
      this.#swap(i, m)
      i = m
    }
  }

  push(start: number, end: number): void {
    if (start >= end) return
    this.#pos.push(start)
    this.#end.push(end)
    let i = this.#pos.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.#less(i, parent)) break
      this.#swap(i, parent)
      i = parent
    }
  }

  /** Takes the row of highest fame and advances its cursor. */
  pop(): number {
    const row = this.#rows[this.#pos[0]]
    this.#pos[0]++
    if (this.#pos[0] >= this.#end[0]) {
      const last = this.#pos.length - 1
      this.#swap(0, last)
      this.#pos.pop()
      this.#end.pop()
    }
    this.#down(0)
    return row
  }
}

/**
 * Relative cost of one heap pop (fame comparisons, the seen-set) against checking one row of the
 * rarest whole word: the prefix drive of a multi-word query gives up past the scan's cost.
 */
const POP_COST = 32

const scoreOf = (last: string, length: number): number => (length === last.length ? 1 : last.length / length)

/**
 * The rows of the rarest whole word (postings in fame order) that hold every whole word and a
 * word beginning with `last`, each under its best score (its shortest such word): the first
 * `max` of each length are kept, then taken shortest first.
 */
const scanWord = (
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
  const end = postings.offsets[rarest + 1]
  let i = postings.offsets[rarest]
  for (; i < end; i++) {
    const row = postings.rows[i]
    if (completions !== undefined && ((completions[row >>> 5] >>> (row & 31)) & 1) === 0) continue
    if (admitted !== undefined && admitted[sexes[row]] === 0) continue
    const key = nameKey[row]
    // The name's tokens ascending: the whole words found in order, the shortest completion of `last`.
    let found = 0
    let length = Infinity
    for (let j = keyOffsets[key]; j < keyOffsets[key + 1]; j++) {
      const t = keyRows[j]
      if (found < wanted.length && t === wanted[found]) found++
      if (t >= lo && t < hi && lengths[t] < length) length = lengths[t]
    }
    if (found < wanted.length || length === Infinity) continue
    let bucket = buckets.get(length)
    if (bucket === undefined) buckets.set(length, bucket = [])
    if (bucket.length < max) bucket.push(row)
    // Nothing later in fame order can outrank a full bucket of the best possible score.
    if (length === shortest && bucket.length === max) break
  }
  st.visited += i - postings.offsets[rarest]
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
 * Whether `row`'s name holds every one of `tokens`. A function of the module, not a closure made by
 * each request: V8's optimised code inlines a closure it has seen and holds it weakly, so the first
 * full collection after the warm-up threw that code away (issue 24 item 6).
 */
const holdsEvery = (data: DatasetData, row: number, tokens: ReadonlyArray<number>): boolean => {
  for (const t of tokens) if (!hasTokenIn(data, row, t, t + 1)) return false
  return true
}

/**
 * Suggestions for `q`, most relevant first, at most `limite` (brought back into 1..100), of the
 * rows whose `sexe` code is one of `sexes` when given (codes of `data.sexe`).
 * A q with no word (blank or only separators) gives no suggestion: check it with `checkQ` first.
 */
export const suggest = (
  data: DatasetData,
  q: string,
  limite: number,
  stats?: SuggestStats,
  sexes?: ReadonlyArray<number>
): Array<Suggestion> => {
  const st: SuggestStats = stats ?? { strategy: "", visited: 0, tokens: 0 }
  const admitted = sexes === undefined ? undefined : allowedTable(sexes, dictionarySize(data.sexe.values))
  st.strategy = ""
  st.visited = 0
  st.tokens = 0
  const words = foldWords(q)
  if (words.length === 0) return []
  const max = clampSuggestLimite(limite)
  const last = words[words.length - 1]
  const exact = [...new Set(words.slice(0, -1))]
  const names = data.names
  const postings = names.rows

  const exactTokens: Array<number> = []
  let rarest = -1
  for (const word of exact) {
    const t = exactToken(names.tokens, word)
    st.tokens++
    if (t < 0) {
      st.strategy = "no-match"
      return []
    }
    exactTokens.push(t)
    if (rarest < 0 || postings.offsets[t + 1] - postings.offsets[t] < postings.offsets[rarest + 1] - postings.offsets[rarest]) {
      rarest = t
    }
  }

  const rarestCount = rarest < 0 ? 0 : postings.offsets[rarest + 1] - postings.offsets[rarest]
  // A multi-word query's prefix drive stops past what scanning the rarest whole word would cost.
  const budget = rarest < 0 ? Infinity : rarestCount / POP_COST

  st.strategy = "prefix"
  const results: Array<Suggestion> = []
  const seen = new Set<number>()
  const byLength = names.byLength
  const maxLength = byLength.offsets.length - 2
  let pops = 0
  for (let length = last.length; length <= maxLength && results.length < max; length++) {
    if (byLength.offsets[length + 1] === byLength.offsets[length]) continue
    const ids = tokensOfLength(names, length, last)
    if (ids.length === 0) continue
    st.tokens += ids.length
    const score = scoreOf(last, length)
    const heap = new FameHeap(data)
    for (const t of ids) heap.push(postings.offsets[t], postings.offsets[t + 1])
    while (heap.size > 0 && results.length < max) {
      if (++pops > budget) {
        st.strategy = "prefix→exact-word"
        return scanWord(data, rarest, exactTokens, last, max, st, admitted)
      }
      const row = heap.pop()
      st.visited++
      if (seen.has(row)) continue
      seen.add(row)
      if (rarest >= 0 && !holdsEvery(data, row, exactTokens)) continue
      if (admitted !== undefined && admitted[data.sexe.codes[row]] === 0) continue
      results.push({ row, score })
    }
  }
  return results
}
