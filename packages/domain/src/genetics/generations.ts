/**
 * Pedigree depth of every node (design §6), after Maignel, Boichard & Verrier 1996 ("Genetic
 * variability of French dairy breeds estimated from pedigree information", Interbull Bull. 14:49–54):
 * - t, the equivalent complete generations: Σ over every known ancestor occurrence of (1/2)^g, i.e.
 *   t_i = Σ over known parents p of (1 + t_p)/2;
 * - complete generations: the largest g such that all 2^g ancestors at generation g are known, i.e.
 *   0 with an unknown parent, else 1 + the smaller of the parents';
 * - the longest line is the graph's own numbering key (pedigreeGraph.ts).
 */
import type { PedigreeGraph } from "./pedigreeGraph.ts"

export interface Generations {
  /** Equivalent complete generations of each node. */
  readonly equivalent: Float64Array
  /** Complete generations of each node. */
  readonly complete: Int32Array
}

export const generationsOf = (graph: PedigreeGraph): Generations => {
  const n = graph.size
  const equivalent = new Float64Array(n)
  const complete = new Int32Array(n)
  for (let v = 0; v < n; v++) {
    const s = graph.sire[v]
    const d = graph.dam[v]
    equivalent[v] = (s >= 0 ? 0.5 * (1 + equivalent[s]) : 0) + (d >= 0 ? 0.5 * (1 + equivalent[d]) : 0)
    complete[v] = s >= 0 && d >= 0 ? 1 + Math.min(complete[s], complete[d]) : 0
  }
  return { equivalent, complete }
}
