/**
 * The whole registry's pedigree as one acyclic graph, numbered by generation (design §6): the order
 * every whole-population algorithm of this folder walks.
 *
 * A record's parents are its resolved links (-1: unknown or dangling). A link that would close a
 * cycle is dropped, as the consanguinity route does (docs/decisions.md): a depth-first walk from
 * every record in file order, sire before dam, parents before children, drops a parent link to a
 * record still on the walk's path. Records are then numbered by generation: a node's generation is
 * its longest line (0 without a known parent, else one more than its deeper parent), so that a
 * node's parents have smaller numbers and every node of a generation comes after all the older
 * ones (Sargolzaei, Iwaisaki & Colleau 2005 batch the progeny of a sire on that property); within
 * a generation, in the order the walk finished them (file order for a file written parents first).
 */
import type { Parentage } from "../query/consanguinite/cutGraph.ts"

const NONE = -1

export interface PedigreeGraph {
  readonly size: number
  /** Record (row) of each node. */
  readonly row: Int32Array
  /** Node of each record. */
  readonly node: Int32Array
  /** Node of each node's sire (dam), or -1; always smaller than the node. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  /** Longest line of each node: the generation of its deepest known ancestor (0: no known parent). */
  readonly longestLine: Int32Array
  /** Parent links dropped because they closed a cycle. */
  readonly droppedLinks: number
}

/** The graph of records whose parents are `parentage` (rows, -1: unknown). */
export const pedigreeGraph = (parentage: Parentage): PedigreeGraph => {
  const n = parentage.sire.length
  const sire = Int32Array.from(parentage.sire)
  const dam = Int32Array.from(parentage.dam)
  // A link outside the rows (a malformed input) is an unknown parent.
  for (let r = 0; r < n; r++) {
    if (sire[r] >= n) sire[r] = NONE
    if (dam[r] >= n) dam[r] = NONE
  }
  const state = new Uint8Array(n) // 0 unseen, 1 on the path, 2 done
  const next = new Uint8Array(n) // next parent slot to look at: 0 sire, 1 dam, 2 none left
  const stack = new Int32Array(n)
  const line = new Int32Array(n)
  // Records in the order the walk finishes them: a record right after its last unfinished ancestors.
  const finished = new Int32Array(n)
  let done = 0
  let dropped = 0
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue
    // A record whose parents are done (or unknown) needs no walk: in a file written
    // parents first, every record takes this path.
    const rs = sire[root]
    const rd = dam[root]
    if ((rs < 0 || state[rs] === 2) && (rd < 0 || state[rd] === 2)) {
      line[root] = rs < 0 && rd < 0 ? 0 : 1 + Math.max(rs < 0 ? 0 : line[rs], rd < 0 ? 0 : line[rd])
      state[root] = 2
      finished[done++] = root
      continue
    }
    let top = 0
    stack[0] = root
    state[root] = 1
    while (top >= 0) {
      const r = stack[top]
      const slot = next[r]
      if (slot < 2) {
        next[r] = slot + 1
        const parents = slot === 0 ? sire : dam
        const p = parents[r]
        if (p < 0) continue
        if (state[p] === 1) {
          parents[r] = NONE
          dropped++
        } else if (state[p] === 0) {
          state[p] = 1
          stack[++top] = p
        }
        continue
      }
      // Parents done: the longest line is final.
      const s = sire[r]
      const d = dam[r]
      line[r] = s < 0 && d < 0 ? 0 : 1 + Math.max(s < 0 ? 0 : line[s], d < 0 ? 0 : line[d])
      state[r] = 2
      finished[done++] = r
      top--
    }
  }

  // Counting sort by generation, in the walk's finishing order within one: relatives end up close
  // in memory even when the file is not written parents first (the F computation reads them together).
  const start = generationStarts(line)
  const row = new Int32Array(n)
  const node = new Int32Array(n)
  for (let k = 0; k < n; k++) {
    const r = finished[k]
    const v = start[line[r]]++
    row[v] = r
    node[r] = v
  }
  const sireOut = new Int32Array(n)
  const damOut = new Int32Array(n)
  const longestLine = new Int32Array(n)
  for (let v = 0; v < n; v++) {
    const r = row[v]
    sireOut[v] = sire[r] < 0 ? NONE : node[sire[r]]
    damOut[v] = dam[r] < 0 ? NONE : node[dam[r]]
    longestLine[v] = line[r]
  }
  return { size: n, row, node, sire: sireOut, dam: damOut, longestLine, droppedLinks: dropped }
}

/**
 * A counting sort's bucket starts by generation: `start[g]` is where the rows of generation `g`
 * (their longest line) begin in generation order; placing a row advances its bucket's start.
 */
const generationStarts = (line: ArrayLike<number>): Int32Array => {
  let deepest = 0
  for (let r = 0; r < line.length; r++) if (line[r] > deepest) deepest = line[r]
  const start = new Int32Array(deepest + 2)
  for (let r = 0; r < line.length; r++) start[line[r] + 1]++
  for (let g = 1; g < start.length; g++) start[g] += start[g - 1]
  return start
}
