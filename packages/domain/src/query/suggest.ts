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
 * postings of its rarest whole word, in fame order, each kept under its score (`suggestByWord.ts`):
 * its cost is then bounded by that word's rows, never by the last word's.
 *
 * With `sexes` (the `sexe` parameter, resolved as the list's filter), a row of another sex is
 * passed over where it would have been taken: the order is the unfiltered one's, and the rows read
 * grow as the sexes asked are rare among the names (about `limite` / their share).
 */
import * as Result from "effect/Result"
import { dictionarySize } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { foldWords } from "../text/fold.ts"
import { parameterRequired, valueNotAdmitted } from "../refusal/messages.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { exactToken, fameCompare, tokensOfLength } from "./nameTokens.ts"
import { holdsEvery, scanWord, scoreOf, type Suggestion, type SuggestStats } from "./suggestByWord.ts"
import { allowedTable } from "./terms.ts"

export type { Suggestion, SuggestStats } from "./suggestByWord.ts"

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

// ---------------------------------------------------------------------------------------------

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
 * Relative cost of one heap pop (fame comparisons, the seen-set, the row's tokens: reads at random)
 * against reading one posting of the rarest whole word in `suggestByWord.ts`' scan by length: the
 * prefix drive of a multi-word query gives up past the scan's cost. At 4.45 M rows, after the caches
 * were swept, `l'o` took 2.6–2.9 ms with 32, 1.4–1.6 with 128 and 1.2 with 512, `du m` 10.4–11.4,
 * 6.3–6.5 and 5.1; at 512 `de la r` left the drive for the scan (0.9 ms against 0.8).
 */
const POP_COST = 128

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
        return scanWord(data, { rarest, exact: exactTokens, last, max, admitted }, st)
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
