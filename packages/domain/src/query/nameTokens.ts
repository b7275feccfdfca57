/**
 * Name words as the token index holds them: a word prefix is a range of the sorted tokens, a
 * row's words are the tokens of its folded name (`keyTokens`), and a frequent prefix has its
 * rows as a bitset (`prefixSets`). Testing a row against a prefix or a whole word is then a few
 * integer comparisons, never a folding of its name.
 */
import { wordsFor } from "../dataset/bits.ts"
import { lowerBound } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"

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
