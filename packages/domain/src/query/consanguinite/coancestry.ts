/**
 * The tabular (coancestry) method on a cut graph: the table of coefficients of coancestry f,
 * filled parents first by the rules
 * - f(a, a) = (1 + F_a) / 2, where F_a = f(sire of a, dam of a);
 * - f(a, b) = (f(sire of a, b) + f(dam of a, b)) / 2 when a comes after b in the graph's order;
 * - an unknown parent, or one beyond the cut, contributes 0: founders are unrelated and not inbred.
 *
 * The table asked about two nodes x and y holds only the nodes that matter to f(x, y): those
 * having an ancestor (or being one) reachable from both x and y. Every line of descent joining x
 * and y runs through such nodes only, so f(x, y) is exact, and so is F of every ancestor common to
 * both (all its own ancestors are common too). Other cells are not used. Restricted so, a complete
 * 12-generation pedigree of a closed population (1 200 distinct ancestors, all related) needs a
 * table of 0.7 M cells, filled in a few milliseconds, where cells memoised one by one took 220 ms.
 */
import { cutGraph, type CutGraph, type Parentage } from "./cutGraph.ts"

const NONE = -1

/**
 * The table's memory, kept between questions (each worker thread has its own): a 12-generation
 * table is megabytes, and allocating it per request made every few requests wait for a collection.
 * Every cell is written before it is read, so it is never cleared. Tables above the cap are
 * allocated for the question alone.
 */
let scratch = new Float64Array(0)
const SCRATCH_CAP = 2 * 1024 * 1024

const tableOf = (cells: number): Float64Array => {
  if (cells <= scratch.length) return scratch
  if (cells > SCRATCH_CAP) return new Float64Array(cells)
  scratch = new Float64Array(Math.min(SCRATCH_CAP, Math.max(cells, 2 * scratch.length)))
  return scratch
}

/**
 * Adds the cells (p, 0…i−1) of the triangle to the row starting at `row`: along row p up to the
 * diagonal, then down column p (cell (j, p) of row j, the row lengths growing by one each time).
 */
const addRow = (table: Float64Array, row: number, i: number, p: number): void => {
  const start = (p * (p + 1)) / 2
  for (let j = 0; j <= p; j++) table[row + j] += table[start + j]
  let at = ((p + 1) * (p + 2)) / 2 + p
  for (let j = p + 1; j < i; j++) {
    table[row + j] += table[at]
    at += j + 1
  }
}

export class Coancestry {
  /** f(x, y). */
  readonly coefficient: number
  /** Nodes the table held: its cost (tests hold it down to the ancestors that matter). */
  readonly nodes: number
  /** F of each graph node common to both sides of the question (0 elsewhere). */
  private readonly commonInbreeding: Float64Array

  constructor(graph: CutGraph, x: number, y: number) {
    const n = graph.size
    // Nodes are numbered parents first: walking down the numbers reaches every ancestor after its descendants.
    const reach = new Uint8Array(n) // bit 1: reachable from x, bit 2: from y
    if (x >= 0) reach[x] |= 1
    if (y >= 0) reach[y] |= 2
    for (let v = n - 1; v >= 0; v--) {
      const from = reach[v]
      if (from === 0) continue
      if (graph.sire[v] >= 0) reach[graph.sire[v]] |= from
      if (graph.dam[v] >= 0) reach[graph.dam[v]] |= from
    }
    // A node matters when it, or one of its ancestors, is reachable from both.
    const position = new Int32Array(n).fill(NONE)
    let size = 0
    for (let v = 0; v < n; v++) {
      if (reach[v] === 0) continue
      const sire = graph.sire[v]
      const dam = graph.dam[v]
      if (reach[v] === 3 || (sire >= 0 && position[sire] >= 0) || (dam >= 0 && position[dam] >= 0)) position[v] = size++
    }
    this.nodes = size
    const table = tableOf((size * (size + 1)) / 2)
    const cell = (i: number, j: number): number => (j <= i ? table[(i * (i + 1)) / 2 + j] : table[(j * (j + 1)) / 2 + i])
    const positionOf = (node: number): number => (node >= 0 ? position[node] : NONE)
    const f = (a: number, b: number): number => {
      const i = positionOf(a)
      const j = positionOf(b)
      return i < 0 || j < 0 ? 0 : cell(i, j)
    }
    for (let v = 0; v < n; v++) {
      const i = position[v]
      if (i < 0) continue
      const s = positionOf(graph.sire[v])
      const d = positionOf(graph.dam[v])
      const row = (i * (i + 1)) / 2
      table.fill(0, row, row + i)
      if (s >= 0) addRow(table, row, i, s)
      if (d >= 0) addRow(table, row, i, d)
      for (let j = row; j < row + i; j++) table[j] *= 0.5
      table[row + i] = 0.5 * (1 + (s >= 0 && d >= 0 ? cell(s, d) : 0))
    }
    this.coefficient = f(x, y)
    this.commonInbreeding = new Float64Array(n)
    for (let v = 0; v < n; v++) if (reach[v] === 3) this.commonInbreeding[v] = f(graph.sire[v], graph.dam[v])
  }

  /** F of an ancestor common to both nodes of the question (0 for any other node). */
  inbreeding(common: number): number {
    return this.commonInbreeding[common]
  }
}

/** F of a foal of `sire` × `dam` (rows, -1: unknown) within `generations`, by the tabular method alone. */
export const foalInbreeding = (parentage: Parentage, sire: number, dam: number, generations: number): number => {
  const graph = cutGraph(parentage, sire, dam, generations)
  return new Coancestry(graph, graph.foalSire, graph.foalDam).coefficient
}
