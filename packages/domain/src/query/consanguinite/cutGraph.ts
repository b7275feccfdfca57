/**
 * The ancestor graph of a foal cut at N generations: the common ground of the two methods that
 * compute its inbreeding coefficient (tabular coancestries and path enumeration), which must agree.
 *
 * The foal itself is not a node: it may be a planned mating with no record. Its sire and dam are at
 * generation 1. An ancestor is in the graph when some line of descent reaches it within N
 * generations (its depth is the shortest such line); its own parents are in the graph only when
 * its depth is below N. An ancestor is a record: parents are given as rows, -1 for an unknown or
 * dangling parent, which has no ancestry and is never shared.
 *
 * The source may contain cycles (a record among its own ancestors). The graph is ordered by a
 * depth-first walk from the sire then the dam, parents first; a parent link that would close a
 * cycle is dropped, so both methods see the same acyclic graph.
 */

/** Parent rows of every row of a data set: -1 where no parent record is known. */
export interface Parentage {
  readonly sire: Int32Array
  readonly dam: Int32Array
}

export interface CutGraph {
  readonly size: number
  /** Row of each node. Nodes are numbered parents first: a node's parents have smaller numbers. */
  readonly row: Int32Array
  /** Node of each node's sire (dam) within the cut, or -1. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  /** Nodes of the foal's sire and dam, or -1 when unknown. */
  readonly foalSire: number
  readonly foalDam: number
}

const NONE = -1

/** The cut graph of a foal whose parents are the rows `sire` and `dam` (-1: unknown), cut at `generations` (≥ 1). */
export const cutGraph = (parentage: Parentage, sire: number, dam: number, generations: number): CutGraph => {
  // Breadth-first from the parents: a row's first discovery is at its smallest depth.
  const local = new Map<number, number>()
  const rows: Array<number> = []
  const depths: Array<number> = []
  const sires: Array<number> = []
  const dams: Array<number> = []
  const discover = (row: number, depth: number): number => {
    if (row < 0) return NONE
    const known = local.get(row)
    if (known !== undefined) return known
    const node = rows.length
    local.set(row, node)
    rows.push(row)
    depths.push(depth)
    sires.push(NONE)
    dams.push(NONE)
    return node
  }
  const rootSire = discover(sire, 1)
  const rootDam = discover(dam, 1)
  for (let node = 0; node < rows.length; node++) {
    const depth = depths[node]
    if (depth >= generations) continue
    const row = rows[node]
    sires[node] = discover(parentage.sire[row], depth + 1)
    dams[node] = discover(parentage.dam[row], depth + 1)
  }

  // Depth-first, parents before children; an edge to a node still on the path is a cycle: dropped.
  const size = rows.length
  const order = new Int32Array(size).fill(NONE)
  const state = new Uint8Array(size) // 0 unseen, 1 on the current path, 2 done
  let next = 0
  const stack: Array<number> = []
  const visit = (root: number): void => {
    if (root < 0 || state[root] !== 0) return
    stack.push(root)
    state[root] = 1
    while (stack.length > 0) {
      const node = stack[stack.length - 1]
      let descended = false
      for (const parents of [sires, dams]) {
        const parent = parents[node]
        if (parent < 0) continue
        if (state[parent] === 1) parents[node] = NONE
        else if (state[parent] === 0) {
          state[parent] = 1
          stack.push(parent)
          descended = true
          break
        }
      }
      if (!descended) {
        stack.pop()
        state[node] = 2
        order[node] = next++
      }
    }
  }
  visit(rootSire)
  visit(rootDam)

  const row = new Int32Array(size)
  const sireOut = new Int32Array(size)
  const damOut = new Int32Array(size)
  for (let node = 0; node < size; node++) {
    const at = order[node]
    row[at] = rows[node]
    sireOut[at] = sires[node] < 0 ? NONE : order[sires[node]]
    damOut[at] = dams[node] < 0 ? NONE : order[dams[node]]
  }
  return {
    size,
    row,
    sire: sireOut,
    dam: damOut,
    foalSire: rootSire < 0 ? NONE : order[rootSire],
    foalDam: rootDam < 0 ? NONE : order[rootDam]
  }
}
