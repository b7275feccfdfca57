/**
 * The per-record genetics columns of a Dataset (issue 27), computed once at load over the whole
 * pedigree: F over all known generations (inbreeding.ts), t and complete generations
 * (generations.ts), the longest line (pedigreeGraph.ts). Stored by row, single precision for the two
 * real-valued columns (seven significant digits, 4 bytes a record each instead of 8), and the rows
 * in the load graph's generation order: the columns cost 15 bytes a record.
 *
 * The longest line also keeps the graph: with the links, it gives the acyclic graph back
 * (`rowPedigree` in ordered.ts), which the generation order lets a query thread walk parents first
 * without sorting the rows again and holding its own copy of the order (4 bytes a record per thread).
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"

export interface GeneticColumns {
  /** F of each row over all known generations. */
  readonly inbreeding: Float32Array
  /** t, the equivalent complete generations, of each row. */
  readonly equivalentGenerations: Float32Array
  readonly completeGenerations: Uint8Array
  /** The generation of the row's deepest known ancestor (0: no known parent). */
  readonly longestLine: Uint16Array
  /** Every row once, by longest line (parents before children), within one in the load walk's finishing order. */
  readonly generationOrder: Int32Array
}

/** The columns of rows whose parents are `parentage` (rows, -1: unknown or dangling). */
export const geneticColumns = (parentage: Parentage): GeneticColumns => {
  const graph = pedigreeGraph(parentage)
  const F = inbreedingCoefficients(graph)
  const { complete, equivalent } = generationsOf(graph)
  const n = graph.size
  const columns: GeneticColumns = {
    inbreeding: new Float32Array(n),
    equivalentGenerations: new Float32Array(n),
    completeGenerations: new Uint8Array(n),
    longestLine: new Uint16Array(n),
    // The graph numbers its nodes in that order: its node-to-row array is the order, kept as is.
    generationOrder: graph.row
  }
  for (let v = 0; v < n; v++) {
    const row = graph.row[v]
    columns.inbreeding[row] = F[v]
    columns.equivalentGenerations[row] = equivalent[v]
    columns.completeGenerations[row] = Math.min(255, complete[v])
    // Saturated: only a malformed chain of 65 536 records can reach it, and it must not stop a load.
    columns.longestLine[row] = Math.min(0xffff, graph.longestLine[v])
  }
  return columns
}
