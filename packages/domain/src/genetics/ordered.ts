/**
 * A pedigree as the population algorithms (groupCoancestry.ts, relationshipRow.ts, founders.ts, ancestors.ts,
 * interval.ts) read it: animals numbered 0..size−1 in any way, each one's generation (its longest
 * line: a kept parent's is smaller, so sorting by it puts parents first) and its kept parents. A
 * Dataset's rows are such animals, with the longest line its genetics columns hold (columns.ts),
 * so that a query thread holds no copy of the load's graph (pedigreeGraph.ts): it is in the
 * Dataset's shared memory. A walk that needs its animals parents first sorts the ones it reached
 * by generation (`rankAnimals`, a counting sort), never the whole registry.
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import type { GeneticColumns } from "./columns.ts"

export interface OrderedPedigree {
  readonly size: number
  /** Each animal's longest line: a kept parent's is smaller. */
  readonly generation: ArrayLike<number>
  /** The animal's sire (dam), or -1. */
  readonly sire: (v: number) => number
  readonly dam: (v: number) => number
}

/**
 * A Dataset's rows as animals. A parent link is kept exactly when the parent's longest line is
 * smaller than the child's: a kept parent's line is smaller by construction, and a link the load
 * dropped for closing a cycle points at a record the child is itself an ancestor of, whose line is
 * larger. So the rows keep the very graph the load computed F on. When the load dropped no link,
 * every link is kept and none is checked: the check reads two lines at random, what a walk over
 * hundreds of thousands of animals pays most (the stallion ranking's row).
 */
export const rowPedigree = (
  parentage: Parentage,
  { droppedLinks, longestLine }: Pick<GeneticColumns, "droppedLinks" | "longestLine">
): OrderedPedigree => {
  const n = longestLine.length
  // A link outside the rows (a malformed input) is an unknown parent, as the load's graph reads it.
  const inRows = (parents: Int32Array): boolean => {
    for (let r = 0; r < parents.length; r++) if (parents[r] >= n) return false
    return true
  }
  const kept = (parents: Int32Array) =>
    droppedLinks === 0 && inRows(parents)
      ? (r: number): number => parents[r]
      : (r: number): number => {
        const p = parents[r]
        return p >= 0 && p < n && longestLine[p] < longestLine[r] ? p : -1
      }
  return { size: n, generation: longestLine, sire: kept(parentage.sire), dam: kept(parentage.dam) }
}
