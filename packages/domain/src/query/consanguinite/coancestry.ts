/**
 * The tabular (coancestry) method on a cut graph: the coefficient of coancestry f(a, b) of two
 * nodes, from the rules of the table filled parents first:
 * - f(a, a) = (1 + F_a) / 2, where F_a = f(sire of a, dam of a);
 * - f(a, b) = (f(sire of a, b) + f(dam of a, b)) / 2 when b is not a descendant of a (in the
 *   graph's order, a comes after b);
 * - an unknown parent, or a parent beyond the cut, contributes 0: founders are unrelated and not inbred.
 * Only the cells a question needs are computed (memoised), not the whole table.
 */
import { cutGraph, type CutGraph, type Parentage } from "./cutGraph.ts"

export class Coancestry {
  private readonly memo = new Map<number, number>()
  private readonly graph: CutGraph

  constructor(graph: CutGraph) {
    this.graph = graph
  }

  /** f(a, b); a node -1 (unknown) is unrelated to everyone. */
  of(a: number, b: number): number {
    if (a < 0 || b < 0) return 0
    // The younger node (larger number) is the one expanded through its parents.
    const young = a > b ? a : b
    const old = a > b ? b : a
    const key = young * this.graph.size + old
    const known = this.memo.get(key)
    if (known !== undefined) return known
    const sire = this.graph.sire[young]
    const dam = this.graph.dam[young]
    const value = young === old
      ? 0.5 * (1 + this.of(sire, dam))
      : 0.5 * (this.of(sire, old) + this.of(dam, old))
    this.memo.set(key, value)
    return value
  }

  /** F of a node: the coancestry of its parents. */
  inbreeding(node: number): number {
    return node < 0 ? 0 : this.of(this.graph.sire[node], this.graph.dam[node])
  }
}

/** F of a foal of `sire` × `dam` (rows, -1: unknown) within `generations`, by the tabular method alone. */
export const foalInbreeding = (parentage: Parentage, sire: number, dam: number, generations: number): number => {
  const graph = cutGraph(parentage, sire, dam, generations)
  return new Coancestry(graph).of(graph.foalSire, graph.foalDam)
}
