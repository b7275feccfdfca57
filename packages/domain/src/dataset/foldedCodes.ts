/**
 * A vocabulary's codes by folded value (case and accents folded): the lookup of the list filters and
 * of a breed's spellings, on each vocabulary's folded order (built with the Dataset, shared by every
 * thread).
 */
import { foldValue } from "../text/fold.ts"
import { dictionaryValue, type Vocabulary } from "./columns.ts"

/** Codes whose value folds to `key` (code 0, absent, never), ascending; empty when none does. */
export const foldedCodes = ({ values, folded }: Vocabulary, key: string): Array<number> => {
  const keyAt = (i: number): string => foldValue(dictionaryValue(values, folded[i]))
  let lo = 0
  let hi = folded.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keyAt(mid) < key) lo = mid + 1
    else hi = mid
  }
  const codes: Array<number> = []
  for (let i = lo; i < folded.length && keyAt(i) === key; i++) codes.push(folded[i])
  return codes
}

/** The codes folding as `code` does (itself among them): a value's every spelling, a breed's for `race`. */
export const codesFoldingAs = (vocabulary: Vocabulary, code: number): Array<number> =>
  foldedCodes(vocabulary, foldValue(dictionaryValue(vocabulary.values, code)))
