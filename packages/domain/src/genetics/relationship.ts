/**
 * Products of the relationship matrix by a vector without building it: Colleau's indirect method
 * (Colleau 2002, "An indirect approach to the extensive calculation of relationship coefficients",
 * Genet. Sel. Evol. 34:409–421). With A = T·D·Tᵀ (inbreeding.ts), A·x is one sweep from the
 * youngest to the oldest (Tᵀ·x: each node passes half of what it holds to each known parent), a
 * scaling by D, and one sweep back from the oldest to the youngest (T·…: each node receives half of
 * each parent's value): two passes over the graph for every node at once.
 */
import { mendelianVariance } from "./inbreeding.ts"
import type { PedigreeGraph } from "./pedigreeGraph.ts"

/** A·x, where `inbreeding` holds the F of every node and `x` a value per node. */
export const relationshipTimes = (graph: PedigreeGraph, inbreeding: Float32Array | Float64Array, x: Float64Array): Float64Array => {
  const n = graph.size
  const { dam, sire } = graph
  const y = Float64Array.from(x)
  for (let v = n - 1; v >= 0; v--) {
    const half = 0.5 * y[v]
    if (half === 0) continue
    if (sire[v] >= 0) y[sire[v]] += half
    if (dam[v] >= 0) y[dam[v]] += half
  }
  for (let v = 0; v < n; v++) {
    const s = sire[v]
    const d = dam[v]
    y[v] = y[v] * mendelianVariance(graph, inbreeding, v) + 0.5 * ((s >= 0 ? y[s] : 0) + (d >= 0 ? y[d] : 0))
  }
  return y
}

/**
 * The mean coancestry of every node with a group (`parente_moyenne`, design §6): the mean of f(i, j)
 * over the distinct nodes j of `members`, with f(i, i) = (1 + F_i)/2; f = a/2, so it is A·x/2 with
 * x the group's indicator over its size. Empty group: empty result.
 */
export const meanCoancestry = (
  graph: PedigreeGraph,
  inbreeding: Float32Array | Float64Array,
  members: ArrayLike<number>
): Float64Array => {
  const x = new Float64Array(graph.size)
  let count = 0
  for (let k = 0; k < members.length; k++) {
    if (x[members[k]] !== 0) continue
    x[members[k]] = 1
    count++
  }
  if (count === 0) return new Float64Array(0)
  for (let v = 0; v < graph.size; v++) if (x[v] !== 0) x[v] = 0.5 / count
  return relationshipTimes(graph, inbreeding, x)
}
