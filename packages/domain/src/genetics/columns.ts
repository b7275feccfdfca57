/**
 * The per-record genetics columns of a Dataset (issue 27), computed once at load over the whole
 * pedigree: F over all known generations (inbreeding.ts), t and complete generations
 * (generations.ts), the longest line (pedigreeGraph.ts). Stored by row, single precision for the two
 * real-valued columns (seven significant digits, 4 bytes a record each instead of 8: the columns
 * cost 11 bytes a record).
 *
 * The longest line also keeps the graph: a parent link is kept exactly when the parent's longest line
 * is smaller than the child's (a kept parent's line is smaller by construction; a link dropped for
 * closing a cycle points at a record the child is itself an ancestor of, whose line is larger), so
 * the acyclic graph is rebuilt from the links and this column alone (`graphOfColumns`).
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { type PedigreeGraph, pedigreeGraph } from "./pedigreeGraph.ts"

export interface GeneticColumns {
  /** F of each row over all known generations. */
  readonly inbreeding: Float32Array
  /** t, the equivalent complete generations, of each row. */
  readonly equivalentGenerations: Float32Array
  readonly completeGenerations: Uint8Array
  /** The generation of the row's deepest known ancestor (0: no known parent). */
  readonly longestLine: Uint16Array
}

/** The columns of rows whose parents are `parentage` (rows, -1: unknown or dangling). */
export const geneticColumns = (parentage: Parentage): GeneticColumns => {
  const graph = pedigreeGraph(parentage)
  if (graph.size > 0 && graph.longestLine[graph.size - 1] > 0xffff) throw new RangeError("a line deeper than 65 535 generations")
  const F = inbreedingCoefficients(graph)
  const { complete, equivalent } = generationsOf(graph)
  const n = graph.size
  const columns: GeneticColumns = {
    inbreeding: new Float32Array(n),
    equivalentGenerations: new Float32Array(n),
    completeGenerations: new Uint8Array(n),
    longestLine: new Uint16Array(n)
  }
  for (let v = 0; v < n; v++) {
    const row = graph.row[v]
    columns.inbreeding[row] = F[v]
    columns.equivalentGenerations[row] = equivalent[v]
    columns.completeGenerations[row] = Math.min(255, complete[v])
    columns.longestLine[row] = graph.longestLine[v]
  }
  return columns
}

/**
 * The acyclic graph of a Dataset rebuilt from its links and its longest-line column, numbered by
 * generation (file order within one), as `pedigreeGraph` numbers it.
 */
export const graphOfColumns = (parentage: Parentage, longestLine: Uint16Array): PedigreeGraph => {
  const n = longestLine.length
  let deepest = 0
  for (let r = 0; r < n; r++) if (longestLine[r] > deepest) deepest = longestLine[r]
  const start = new Int32Array(deepest + 2)
  for (let r = 0; r < n; r++) start[longestLine[r] + 1]++
  for (let g = 1; g < start.length; g++) start[g] += start[g - 1]
  const row = new Int32Array(n)
  const node = new Int32Array(n)
  for (let r = 0; r < n; r++) {
    const v = start[longestLine[r]]++
    row[v] = r
    node[r] = v
  }
  const sire = new Int32Array(n)
  const dam = new Int32Array(n)
  const line = new Int32Array(n)
  let dropped = 0
  const kept = (r: number, p: number): number => {
    if (p < 0 || p >= n) return -1
    if (longestLine[p] < longestLine[r]) return node[p]
    dropped++
    return -1
  }
  for (let v = 0; v < n; v++) {
    const r = row[v]
    sire[v] = kept(r, parentage.sire[r])
    dam[v] = kept(r, parentage.dam[r])
    line[v] = longestLine[r]
  }
  return { size: n, row, node, sire, dam, longestLine: line, droppedLinks: dropped }
}
