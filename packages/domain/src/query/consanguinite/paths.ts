/**
 * Wright's path method on a cut graph, ancestor by ancestor:
 * F = Σ over common ancestors A, over every pair of paths sire…A and dam…A that share no
 * individual but A, of (1/2)^(n1+n2+1) · (1 + F_A), n1 and n2 counting the links of each path.
 * On the same graph this is the tabular method's F term for term (tests hold them together), and
 * it says through whom: each ancestor's paths, their generations and its share of F.
 */
import type { Coancestry } from "./coancestry.ts"
import type { CutGraph } from "./cutGraph.ts"

export interface CommonAncestor {
  readonly node: number
  /** Generation (from the foal) of every path reaching the ancestor through the sire, ascending. */
  readonly sireGenerations: ReadonlyArray<number>
  /** The same through the dam. */
  readonly damGenerations: ReadonlyArray<number>
  /** Pairs of paths sharing no individual but the ancestor. */
  readonly pairs: number
  /** Σ (1/2)^(n1+n2+1) · (1 + F_A) over those pairs. */
  readonly contribution: number
  /** F_A, within the same cut. */
  readonly inbreeding: number
}

/**
 * Every path of the graph starting at `root`, as a tree: path k ends at `node[k]`, has `links[k]`
 * links and continues path `up[k]` (-1 for the root alone). Grouped by end node.
 */
interface Paths {
  readonly node: Array<number>
  readonly up: Array<number>
  readonly links: Array<number>
  readonly byNode: Map<number, Array<number>>
}

const pathsFrom = (graph: CutGraph, root: number): Paths => {
  const paths: Paths = { node: [], up: [], links: [], byNode: new Map() }
  if (root < 0) return paths
  const add = (node: number, up: number, links: number): void => {
    const k = paths.node.length
    paths.node.push(node)
    paths.up.push(up)
    paths.links.push(links)
    const list = paths.byNode.get(node)
    if (list === undefined) paths.byNode.set(node, [k])
    else list.push(k)
  }
  add(root, -1, 0)
  // Paths are appended while being read: each one is extended once by each parent of its end.
  for (let k = 0; k < paths.node.length; k++) {
    const node = paths.node[k]
    const sire = graph.sire[node]
    const dam = graph.dam[node]
    if (sire >= 0) add(sire, k, paths.links[k] + 1)
    if (dam >= 0) add(dam, k, paths.links[k] + 1)
  }
  return paths
}

/**
 * Built by `push`, not `map`: the array `map` made met another map at the `sort` of the optimised
 * code once per worker, at the first 8-generation question after the 12-generation warm-up
 * (`--trace-deopt`, issue 24 item 6).
 */
const generations = (paths: Paths, list: ReadonlyArray<number>): Array<number> => {
  const out: Array<number> = []
  for (const k of list) out.push(paths.links[k] + 1)
  return out.sort((a, b) => a - b)
}

/** The common ancestors of the foal of `graph` (those with at least one pair of paths), unordered. */
export const commonAncestors = (graph: CutGraph, coancestry: Coancestry): Array<CommonAncestor> => {
  const sireSide = pathsFrom(graph, graph.foalSire)
  const damSide = pathsFrom(graph, graph.foalDam)
  const mark = new Int32Array(graph.size)
  let stamp = 0
  const out: Array<CommonAncestor> = []
  for (const [ancestor, sirePaths] of sireSide.byNode) {
    const damPaths = damSide.byNode.get(ancestor)
    if (damPaths === undefined) continue
    let pairs = 0
    let weight = 0
    for (const p of sirePaths) {
      stamp++
      // The individuals of the sire's path, the ancestor excepted.
      for (let k = sireSide.up[p]; k >= 0; k = sireSide.up[k]) mark[sireSide.node[k]] = stamp
      for (const q of damPaths) {
        let disjoint = true
        for (let k = damSide.up[q]; k >= 0; k = damSide.up[k]) {
          if (mark[damSide.node[k]] === stamp) {
            disjoint = false
            break
          }
        }
        if (!disjoint) continue
        pairs++
        weight += 0.5 ** (sireSide.links[p] + damSide.links[q] + 1)
      }
    }
    if (pairs === 0) continue
    const inbreeding = coancestry.inbreeding(ancestor)
    out.push({
      node: ancestor,
      sireGenerations: generations(sireSide, sirePaths),
      damGenerations: generations(damSide, damPaths),
      pairs,
      contribution: weight * (1 + inbreeding),
      inbreeding
    })
  }
  return out
}
