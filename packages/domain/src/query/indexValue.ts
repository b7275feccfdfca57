/**
 * The value of an index code for one equid: the index of that code with the latest `annee` (the
 * first listed on a tie; an index without `annee` counts as older than any dated one), its
 * `valeur` read as a signed decimal (`+6`, `88`, `-3.5`). A `valeur` that does not read that way
 * gives no value: the equid is left out of that code's statistics, not given an older index.
 */
import type { SourceIndex, SourcePerformance } from "../dataset/SourceRecord.ts"

const SIGNED_DECIMAL = /^[+-]?[0-9]+(?:\.[0-9]+)?$/

/** `valeur` as a number, or undefined when it is not a signed decimal. */
export const readValeur = (valeur: string | undefined): number | undefined =>
  valeur !== undefined && SIGNED_DECIMAL.test(valeur) ? Number(valeur) + 0 : undefined

/** The retained index of `code` and the discipline of the performance listing it, or undefined. */
export const retainedIndex = (
  performances: ReadonlyArray<SourcePerformance> | undefined,
  code: string
): { readonly index: SourceIndex; readonly discipline: string | undefined } | undefined => {
  if (performances === undefined) return undefined
  let best: SourceIndex | undefined
  let discipline: string | undefined
  for (const performance of performances) {
    for (const index of performance.indices ?? []) {
      if (index.code !== code) continue
      if (best === undefined || (index.annee !== undefined && (best.annee === undefined || index.annee > best.annee))) {
        best = index
        discipline = performance.discipline
      }
    }
  }
  return best === undefined ? undefined : { index: best, discipline }
}
