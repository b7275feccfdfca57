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
 * descending), through a per-length sorted token list built once per Dataset; the postings of
 * the tokens of one length are merged by fame with a heap and consumed only until `limite` rows
 * are found, so `q=A` at 4.45 M rows reads about `limite` postings. A multi-word query is
 * either driven the same way, each row checked against a bitmap of its rarest exact word, or,
 * when that word is rare enough (estimated cost), by scanning that word's postings.
 */
import { Result } from "effect"
import { postingsOf } from "../dataset/columns.ts"
import type { DatasetData, TokenIndex } from "../dataset/DatasetData.ts"
import { foldWords } from "../text/fold.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { foldedLookup, yearOfCode } from "./filters.ts"
import { referential, REFERENTIEL_DIMENSIONS } from "./referential.ts"
import { bitsOfLists, exactToken, FOLD_COST, hasBit, prefixRange, rowWords } from "./select.ts"

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
        detail: q === undefined ? "Le paramètre q est obligatoire." : "Une valeur vide n'est pas admise pour q.",
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

// ---------------------------------------------------------------------------------------------
// Tokens grouped by length (sorted within a length), built once per token index.

interface LengthIndex {
  /** Token ids of length L are `ids[offsets[L]..offsets[L+1]]`, in token (sorted) order. */
  readonly offsets: Uint32Array
  readonly ids: Uint32Array
  readonly maxLength: number
}

const lengthIndexes = new WeakMap<TokenIndex, LengthIndex>()

const lengthIndex = (names: TokenIndex): LengthIndex => {
  let index = lengthIndexes.get(names)
  if (index === undefined) {
    const tokens = names.tokens
    let maxLength = 0
    for (const token of tokens) if (token.length > maxLength) maxLength = token.length
    const offsets = new Uint32Array(maxLength + 2)
    for (const token of tokens) offsets[token.length + 1]++
    for (let l = 0; l <= maxLength; l++) offsets[l + 1] += offsets[l]
    const cursor = offsets.slice(0, maxLength + 1)
    const ids = new Uint32Array(tokens.length)
    for (let t = 0; t < tokens.length; t++) ids[cursor[tokens[t].length]++] = t
    index = { offsets, ids, maxLength }
    lengthIndexes.set(names, index)
  }
  return index
}

/** Ids of the tokens of length `length` beginning with `prefix`, in token order. */
const tokensOfLength = (names: TokenIndex, index: LengthIndex, length: number, prefix: string): Array<number> => {
  const tokens = names.tokens
  let lo = index.offsets[length]
  let hi = index.offsets[length + 1]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (tokens[index.ids[mid]] < prefix) lo = mid + 1
    else hi = mid
  }
  const out: Array<number> = []
  for (let i = lo; i < index.offsets[length + 1]; i++) {
    const t = index.ids[i]
    if (!tokens[t].startsWith(prefix)) break
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

/** Best score of the last query word over a name's words. */
const bestScore = (last: string, words: ReadonlyArray<string>): number => {
  let best = 0
  for (const word of words) {
    const s = wordScore(last, word)
    if (s > best) best = s
  }
  return best
}

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

/** Relative cost of one heap pop (fame comparisons, the seen-set) against marking a posting. */
const POP_COST = 40

/** Estimated cost of scanning the rarest exact word's postings, folding each row's name. */
const scanCost = (rarestCount: number): number => rarestCount * FOLD_COST

/**
 * Estimated cost of the prefix drive checked against a bitmap of the rarest exact word: the
 * bitmap (allocation and marks), then about limite·n/rarestCount pops (at most every posting of
 * the last word's tokens).
 */
const prefixCost = (data: DatasetData, last: string, rarestCount: number, limite: number): number => {
  const [lo, hi] = prefixRange(data.names.tokens, last)
  const lastPostings = data.names.rows.offsets[hi] - data.names.rows.offsets[lo]
  const pops = Math.min(lastPostings, (limite * data.size) / Math.max(rarestCount, 1))
  return data.size / 16 + rarestCount + pops * POP_COST
}

/**
 * Suggestions for `q`, most relevant first, at most `limite` (brought back into 1..100).
 * A q with no word (blank or only separators) gives no suggestion: check it with `checkQ` first.
 */
export const suggest = (data: DatasetData, q: string, limite: number, stats?: SuggestStats): Array<Suggestion> => {
  const st: SuggestStats = stats ?? { strategy: "", visited: 0, tokens: 0 }
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

  let rarest = -1
  for (const word of exact) {
    const t = exactToken(names.tokens, word)
    st.tokens++
    if (t < 0) {
      st.strategy = "no-match"
      return []
    }
    if (rarest < 0 || postings.offsets[t + 1] - postings.offsets[t] < postings.offsets[rarest + 1] - postings.offsets[rarest]) {
      rarest = t
    }
  }

  const rarestCount = rarest < 0 ? 0 : postings.offsets[rarest + 1] - postings.offsets[rarest]
  if (rarest >= 0 && scanCost(rarestCount) <= prefixCost(data, last, rarestCount, max)) {
    // Driven by the rarest exact word: its postings are in fame order, so a stable sort by score keeps ties right.
    st.strategy = "exact-word"
    const found: Array<Suggestion> = []
    for (let i = postings.offsets[rarest]; i < postings.offsets[rarest + 1]; i++) {
      const row = postings.rows[i]
      st.visited++
      const rowWordList = rowWords(data, row)
      if (!exact.every((w) => rowWordList.includes(w))) continue
      const score = bestScore(last, rowWordList)
      if (score > 0) found.push({ row, score })
    }
    found.sort((a, b) => b.score - a.score)
    return found.slice(0, max)
  }

  st.strategy = "prefix"
  const index = lengthIndex(names)
  const results: Array<Suggestion> = []
  const seen = new Set<number>()
  let check: ((row: number) => boolean) | undefined
  if (rarest >= 0) {
    // Rows holding the rarest exact word, in a bitset; the other exact words on the row's name.
    const marked = bitsOfLists(data.size, [postingsOf(postings, rarest)])
    st.visited += rarestCount
    const others = exact.filter((w) => w !== names.tokens[rarest])
    check = others.length === 0
      ? (row) => hasBit(marked, row)
      : (row) => {
        if (!hasBit(marked, row)) return false
        const rowWordList = rowWords(data, row)
        return others.every((w) => rowWordList.includes(w))
      }
  }
  for (let length = last.length; length <= index.maxLength && results.length < max; length++) {
    if (index.offsets[length + 1] === index.offsets[length]) continue
    const ids = tokensOfLength(names, index, length, last)
    if (ids.length === 0) continue
    st.tokens += ids.length
    const score = length === last.length ? 1 : last.length / length
    const heap = new FameHeap(data)
    for (const t of ids) heap.push(postings.offsets[t], postings.offsets[t + 1])
    while (heap.size > 0 && results.length < max) {
      const row = heap.pop()
      st.visited++
      if (seen.has(row)) continue
      seen.add(row)
      if (check !== undefined && !check(row)) continue
      results.push({ row, score })
    }
  }
  return results
}


/**
 * Builds, ahead of the first request, the per-Dataset caches the queries otherwise build lazily
 * on first use: tokens by length (suggestions), folded dictionaries (filters), years per code,
 * and every reference list. Optional; call once after loading (each is O(dictionary size)).
 */
export const prepareQueries = (data: DatasetData): void => {
  lengthIndex(data.names)
  for (const values of [data.race.values, data.robe.values, data.sexe.values, data.statut.values, data.discipline.values, data.indice.values]) {
    foldedLookup(values)
  }
  yearOfCode(data.annee)
  for (const dimension of REFERENTIEL_DIMENSIONS) referential(data, dimension)
}
