/**
 * The per-record genetics columns of a Dataset (issue 27), computed once at load over the whole
 * pedigree: F over all known generations (inbreeding.ts), t and complete generations
 * (generations.ts), the longest line (pedigreeGraph.ts). Stored by row, single precision for the two
 * real-valued columns (seven significant digits), F as a code into its distinct values, t and the
 * complete generations as one code into their distinct pairs: the columns cost 5 bytes a record
 * (2 F code, 2 depth, 1 longest line), 9 with the generation order they held until issue 27's
 * memory target (4 bytes a record), 11 before the F code, 15 before the depth code and the
 * one-byte longest line.
 *
 * The longest line also keeps the graph: with the links, it gives the acyclic graph back
 * (`rowPedigree` in ordered.ts), and a walk sorts the animals it reached by it to take them
 * parents first (`rankAnimals`).
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { depthCodes, inbreedingCodes } from "./depthCodes.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"

export interface GeneticColumns {
  /**
   * The row's F over all known generations: a code into `inbreedingValues` (`inbreedingOf`). A
   * pedigree's F takes few distinct single-precision values (18 282 at 4.45 M generated records), so a
   * row holds 2 bytes where 4 were stored; 4 bytes (no saving, no loss) past 65 536 distinct values.
   */
  readonly inbreedingCode: Uint16Array | Uint32Array
  /** F of each code, in single precision. */
  readonly inbreedingValues: Float32Array
  /**
   * The row's depth: a code into `depthEquivalent` and `depthComplete`. A pedigree's t and complete
   * generations take few distinct pairs (17 855 at 4.45 M generated records), so a row holds 2 bytes
   * for both where 5 were stored; 4 bytes (no saving, no loss) past 65 536 distinct pairs.
   */
  readonly depth: Uint16Array | Uint32Array
  /** t, the equivalent complete generations, of each depth code (`equivalentGenerationsOf`). */
  readonly depthEquivalent: Float32Array
  /** Complete generations of each depth code (`completeGenerationsOf`), 255 at most. */
  readonly depthComplete: Uint8Array
  /**
   * The generation of the row's deepest known ancestor (0: no known parent): one byte while every
   * line is shorter than 256 generations (a real registry's longest line is a few dozen), else two.
   */
  readonly longestLine: Uint8Array | Uint16Array
  /** Parent links the load dropped for closing a cycle (none in a sound registry: `rowPedigree` then checks no link). */
  readonly droppedLinks: number
}

/** F of `row`. */
export const inbreedingOf = (columns: Pick<GeneticColumns, "inbreedingCode" | "inbreedingValues">, row: number): number =>
  columns.inbreedingValues[columns.inbreedingCode[row]]

/** t of `row`. */
export const equivalentGenerationsOf = (columns: GeneticColumns, row: number): number =>
  columns.depthEquivalent[columns.depth[row]]

/** Complete generations of `row`. */
export const completeGenerationsOf = (columns: GeneticColumns, row: number): number =>
  columns.depthComplete[columns.depth[row]]

const U16_CODES = 1 << 16

/** The columns of rows whose parents are `parentage` (rows, -1: unknown or dangling). */
export const geneticColumns = (parentage: Parentage): GeneticColumns => {
  const graph = pedigreeGraph(parentage)
  const F = inbreedingCoefficients(graph)
  const { complete, equivalent } = generationsOf(graph)
  const n = graph.size
  let deepest = 0
  for (let v = 0; v < n; v++) if (graph.longestLine[v] > deepest) deepest = graph.longestLine[v]
  const inbreeding = inbreedingCodes(graph.row, F)
  const depth = depthCodes(graph.row, equivalent, complete)
  // Saturated: only a malformed chain of 65 536 records can reach it, and it must not stop a load.
  const longestLine = deepest < 256 ? new Uint8Array(n) : new Uint16Array(n)
  for (let v = 0; v < n; v++) longestLine[graph.row[v]] = Math.min(0xffff, graph.longestLine[v])
  return {
    inbreedingCode: inbreeding.values.length <= U16_CODES ? Uint16Array.from(inbreeding.codes) : inbreeding.codes,
    inbreedingValues: inbreeding.values,
    depth: depth.equivalent.length <= U16_CODES ? Uint16Array.from(depth.codes) : depth.codes,
    depthEquivalent: depth.equivalent,
    depthComplete: depth.complete,
    longestLine,
    droppedLinks: graph.droppedLinks
  }
}
