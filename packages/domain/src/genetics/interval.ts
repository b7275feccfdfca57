/**
 * The generation interval (design §6; James 1977, "A note on selection differentials and generation
 * length when generations overlap", Anim. Prod. 24:109–112): the mean age of the parents at the
 * birth of the members of the reference population, i.e. the mean of (child's birth year − parent's
 * birth year) over every (member, known parent) pair where both years are known. Read from the
 * members' ancestry (ancestry.ts), which `statsGenetique` shares with f_e and f_a.
 */
import { type Ancestry, ancestryOf } from "./ancestry.ts"
import type { OrderedPedigree } from "./ordered.ts"

/** `year` by animal (`noYear` where absent); null when no pair has both years. */
export const generationInterval = (
  pedigree: OrderedPedigree,
  year: Int32Array,
  noYear: number,
  members: ArrayLike<number>,
  { dam, member, node, sire }: Ancestry = ancestryOf(pedigree, members)
): number | null => {
  // Whole years: the sum is exact in any order.
  let sum = 0
  let pairs = 0
  for (let i = 0; i < node.length; i++) {
    if (member[i] === 0) continue
    const born = year[node[i]]
    if (born === noYear) continue
    const s = sire[i]
    const d = dam[i]
    if (s >= 0 && year[node[s]] !== noYear) {
      sum += born - year[node[s]]
      pairs++
    }
    if (d >= 0 && year[node[d]] !== noYear) {
      sum += born - year[node[d]]
      pairs++
    }
  }
  return pairs === 0 ? null : sum / pairs
}
