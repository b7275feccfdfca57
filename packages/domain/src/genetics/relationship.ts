/**
 * Products of the relationship matrix by a vector without building it: Colleau's indirect method
 * (Colleau 2002, "An indirect approach to the extensive calculation of relationship coefficients",
 * Genet. Sel. Evol. 34:409–421). With A = T·D·Tᵀ (inbreeding.ts), A·x is one sweep from the
 * youngest to the oldest (Tᵀ·x: each node passes half of what it holds to each known parent), a
 * scaling by D, and one sweep back from the oldest to the youngest (T·…: each node receives half of
 * each parent's value): two passes over the graph for every node at once.
 */
import { mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"

/**
 * Overwrites `x` with A·x, where `inbreeding` holds the F of every animal and `x` a value per
 * animal: in place, so that a pass over the registry costs one array of 8 bytes a record, not two.
 */
export const relationshipTimes = (
  pedigree: OrderedPedigree,
  inbreeding: Float32Array | Float64Array,
  x: Float64Array
): Float64Array => {
  const { dam, order, sire, size } = pedigree
  for (let k = size - 1; k >= 0; k--) {
    const v = order[k]
    const half = 0.5 * x[v]
    if (half === 0) continue
    const s = sire(v)
    const d = dam(v)
    if (s >= 0) x[s] += half
    if (d >= 0) x[d] += half
  }
  for (let k = 0; k < size; k++) {
    const v = order[k]
    const s = sire(v)
    const d = dam(v)
    x[v] = x[v] * mendelianVariance(inbreeding, s, d) + 0.5 * ((s >= 0 ? x[s] : 0) + (d >= 0 ? x[d] : 0))
  }
  return x
}

/**
 * The mean coancestry of every animal with a group (`parente_moyenne`, design §6): the mean of
 * f(i, j) over the distinct animals j of `members`, with f(i, i) = (1 + F_i)/2; f = a/2, so it is
 * A·x/2 with x the group's indicator over its size. Empty group: empty result.
 */
export const meanCoancestry = (
  pedigree: OrderedPedigree,
  inbreeding: Float32Array | Float64Array,
  members: ArrayLike<number>
): Float64Array => {
  const x = new Float64Array(pedigree.size)
  let count = 0
  for (let k = 0; k < members.length; k++) {
    if (x[members[k]] !== 0) continue
    x[members[k]] = 1
    count++
  }
  if (count === 0) return new Float64Array(0)
  for (let v = 0; v < pedigree.size; v++) if (x[v] !== 0) x[v] = 0.5 / count
  return relationshipTimes(pedigree, inbreeding, x)
}
