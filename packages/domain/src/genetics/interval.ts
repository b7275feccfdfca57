/**
 * The generation interval (design §6; James 1977, "A note on selection differentials and generation
 * length when generations overlap", Anim. Prod. 24:109–112): the mean age of the parents at the
 * birth of the members of the reference population, i.e. the mean of (child's birth year − parent's
 * birth year) over every (member, known parent) pair where both years are known.
 *
 * Read from the members and their parents alone, in the members' order (a reference population's
 * rows ascend, so its years and links are read in file order and only the parents' years at
 * random): a pass over the members' ancestry read each member's and each parent's year through the
 * ancestry's numbering, twice the random reads for the same pairs.
 */
import type { OrderedPedigree } from "./ordered.ts"

/** `year` by animal (`noYear` where absent), over `members` listed once each; null when no pair has both years. */
export const generationInterval = (
  { dam, sire }: Pick<OrderedPedigree, "sire" | "dam">,
  year: Int32Array,
  noYear: number,
  members: ArrayLike<number>
): number | null => {
  // Whole years: the sum is exact in any order.
  let sum = 0
  let pairs = 0
  for (let k = 0; k < members.length; k++) {
    const v = members[k]
    const born = year[v]
    if (born === noYear) continue
    const s = sire(v)
    const d = dam(v)
    if (s >= 0 && year[s] !== noYear) {
      sum += born - year[s]
      pairs++
    }
    if (d >= 0 && year[d] !== noYear) {
      sum += born - year[d]
      pairs++
    }
  }
  return pairs === 0 ? null : sum / pairs
}
