/**
 * What `/v1/stats/genetique` says of the whole extract (no breed asked), computed at load and held
 * in the Dataset beside the founders and ancestors of its reference population
 * (`DatasetData.wholeDiversity`): that population with its mean F (design §6), and the sums of
 * every birth year (`trend.ts`). Each query worker made them on its first such request, or in its
 * warm-up before ready: 0.17–0.2 s of every worker's start at 4.45 M records, and the reference's
 * rows held once by each thread.
 */
import { meanOf } from "./breedShares.ts"
import { inbreedingOf } from "./columns.ts"
import { type ReferencePopulation, referenceOfLastYear, referencePopulation } from "./reference.ts"
import { trendColumnsOf, type TrendGenetics, yearSums, type YearSums } from "./trend.ts"

export interface WholeExtract {
  /** The reference population's last birth year, `noYear` when it has none (then `members` is empty). */
  readonly lastYear: number
  /** Its rows, ascending. */
  readonly members: Int32Array
  /** Their mean F (0 without a reference population). */
  readonly meanInbreeding: number
  /** The year figures' sums over every row. */
  readonly years: YearSums
}

/** The whole extract of `year.length` rows as the Dataset holds it. */
export const wholeExtractOf = (
  year: Int32Array,
  noYear: number,
  loadYear: number,
  genetics: TrendGenetics
): WholeExtract => {
  const reference = referencePopulation(year, noYear, undefined, loadYear)
  return {
    lastYear: reference === null ? noYear : reference.annee_max,
    members: reference === null ? new Int32Array(0) : reference.rows,
    meanInbreeding: reference === null ? 0 : meanOf((row) => inbreedingOf(genetics, row), reference.rows),
    years: yearSums(trendColumnsOf(genetics), year, noYear)
  }
}

/** The whole extract's reference population as `referencePopulation` gives it. */
export const wholeReference = (whole: WholeExtract, noYear: number): ReferencePopulation | null =>
  whole.lastYear === noYear ? null : referenceOfLastYear(whole.lastYear, whole.members)
