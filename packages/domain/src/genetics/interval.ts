/**
 * The generation interval (design §6; James 1977, "A note on selection differentials and generation
 * length when generations overlap", Anim. Prod. 24:109–112): the mean age of the parents at the
 * birth of the members of the reference population, i.e. the mean of (child's birth year − parent's
 * birth year) over every (member, known parent) pair where both years are known.
 */
import type { OrderedPedigree } from "./ordered.ts"

/** `year` by animal (`noYear` where absent); null when no pair has both years. */
export const generationInterval = (
  pedigree: OrderedPedigree,
  year: Int32Array,
  noYear: number,
  members: ArrayLike<number>
): number | null => {
  let sum = 0
  let pairs = 0
  const seen = new Uint8Array(pedigree.size)
  for (let k = 0; k < members.length; k++) {
    const v = members[k]
    if (seen[v] === 1) continue
    seen[v] = 1
    const born = year[v]
    if (born === noYear) continue
    for (const p of [pedigree.sire(v), pedigree.dam(v)]) {
      if (p < 0 || year[p] === noYear) continue
      sum += born - year[p]
      pairs++
    }
  }
  return pairs === 0 ? null : sum / pairs
}
