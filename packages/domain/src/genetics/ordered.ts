/**
 * A pedigree as the population algorithms (relationship.ts, founders.ts, ancestors.ts,
 * interval.ts) read it: animals numbered 0..size−1 in any way, an order that puts every parent
 * before its children, and each animal's kept parents. A Dataset's rows are such animals, ordered
 * by their longest-line column, so that a query thread holds one array of 4 bytes a record instead
 * of a copy of the load's graph (pedigreeGraph.ts).
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { generationStarts } from "./pedigreeGraph.ts"

export interface OrderedPedigree {
  readonly size: number
  /** Every animal once, parents before children. */
  readonly order: Int32Array
  /** The animal's sire (dam), or -1. */
  readonly sire: (v: number) => number
  readonly dam: (v: number) => number
}

/**
 * A Dataset's rows as animals. A parent link is kept exactly when the parent's longest line is
 * smaller than the child's: a kept parent's line is smaller by construction, and a link the load
 * dropped for closing a cycle points at a record the child is itself an ancestor of, whose line is
 * larger. So the rows keep the very graph the load computed F on.
 */
export const rowPedigree = (parentage: Parentage, longestLine: Uint16Array): OrderedPedigree => {
  const n = longestLine.length
  const start = generationStarts(longestLine)
  const order = new Int32Array(n)
  for (let r = 0; r < n; r++) order[start[longestLine[r]]++] = r
  const kept = (parents: Int32Array) => (r: number): number => {
    const p = parents[r]
    return p >= 0 && p < n && longestLine[p] < longestLine[r] ? p : -1
  }
  return { size: n, order, sire: kept(parentage.sire), dam: kept(parentage.dam) }
}
