/**
 * Name words as the token index holds them: a word prefix is a range of the sorted tokens, a
 * row's words are the tokens of its folded name (`keyTokens`), and a frequent prefix has its
 * rows as a bitset (`prefixSets`). Testing a row against a prefix or a whole word is then a few
 * integer comparisons, never a folding of its name.
 */
import { wordsFor } from "../dataset/bits.ts"
import { compareUtf8, type Dictionary, dictionarySize } from "../dataset/columns.ts"
import type { DatasetData, TokenIndex } from "../dataset/DatasetData.ts"

const encoder = new TextEncoder()

/** A word as the tokens are compared with it: its UTF-8. */
export const tokenKey = (word: string): Uint8Array => encoder.encode(word)

/** Token `t` compared with `key` as the strings compare (code units). */
export const compareToken = ({ bytes, offsets }: Dictionary, t: number, key: Uint8Array): number =>
  compareUtf8(bytes, offsets[t], offsets[t + 1], key, 0, key.length)

/** Whether token `t` begins with `key` (a UTF-8 prefix is a string prefix: tokens are well-formed). */
export const tokenStartsWith = ({ bytes, offsets }: Dictionary, t: number, key: Uint8Array): boolean => {
  const start = offsets[t]
  if (offsets[t + 1] - start < key.length) return false
  for (let i = 0; i < key.length; i++) if (bytes[start + i] !== key[i]) return false
  return true
}

/** Ids of the tokens of length `length` beginning with `prefix`, in token order. */
export const tokensOfLength = (names: TokenIndex, length: number, prefix: string): Array<number> => {
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

/** First token from `lo` below `hi` not less than `key`, in token order. */
const lowerToken = (tokens: Dictionary, key: Uint8Array, lo: number, hi: number): number => {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareToken(tokens, mid, key) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Range `[lo, hi)` of the sorted tokens that start with `prefix`. */
export const prefixRange = (tokens: Dictionary, prefix: string): readonly [number, number] => {
  const key = tokenKey(prefix)
  const count = dictionarySize(tokens)
  const lo = lowerToken(tokens, key, 0, count)
  let a = lo
  let b = count
  while (a < b) {
    const mid = (a + b) >>> 1
    if (tokenStartsWith(tokens, mid, key)) a = mid + 1
    else b = mid
  }
  return [lo, a]
}

/** Index of the token equal to `word`, or -1. */
export const exactToken = (tokens: Dictionary, word: string): number => {
  const key = tokenKey(word)
  const i = lowerToken(tokens, key, 0, dictionarySize(tokens))
  return i < dictionarySize(tokens) && compareToken(tokens, i, key) === 0 ? i : -1
}

/** True when the row's name holds a token of `[lo, hi)`. */
export const hasTokenIn = (data: DatasetData, row: number, lo: number, hi: number): boolean => {
  const { offsets, rows: tokens } = data.names.keyTokens
  const key = data.nameKey[row]
  for (let i = offsets[key]; i < offsets[key + 1]; i++) {
    const t = tokens[i]
    if (t >= lo) return t < hi
  }
  return false
}

/** Fame order, the order of every token's postings: more direct descendants first, then name rank (folded name, then file order). */
export const fameCompare = (data: DatasetData, a: number, b: number): number => {
  const o = data.progeny.offsets
  const pa = o[a + 1] - o[a]
  const pb = o[b + 1] - o[b]
  return pa !== pb ? pb - pa : data.nameRank[a] - data.nameRank[b]
}

/** True when two rows' names fold alike (they tie in name order). */
export const sameFoldedName = (data: DatasetData, a: number, b: number): boolean => data.nameKey[a] === data.nameKey[b]

/** The rows of the token range `[lo, hi)` as a bitset, with their count, when the Dataset keeps one. */
export const prefixSet = (
  data: DatasetData,
  lo: number,
  hi: number
): { readonly bits: Uint32Array; readonly count: number } | undefined => {
  const { ranges, counts, bits } = data.names.prefixSets
  let a = 0
  let b = counts.length
  while (a < b) {
    const mid = (a + b) >>> 1
    if (ranges[2 * mid] < lo || (ranges[2 * mid] === lo && ranges[2 * mid + 1] < hi)) a = mid + 1
    else b = mid
  }
  if (a === counts.length || ranges[2 * a] !== lo || ranges[2 * a + 1] !== hi) return undefined
  const words = wordsFor(data.size)
  return { bits: bits.subarray(a * words, (a + 1) * words), count: counts[a] }
}
