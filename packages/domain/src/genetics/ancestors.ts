/**
 * The effective number of ancestors f_a (Boichard, Maignel & Verrier 1997, "The value of using
 * probabilities of gene origin to measure genetic variability in a population", Genet. Sel. Evol.
 * 29:5–23), as design §6 states it. The ancestors are the nodes from which a member of the
 * reference population descends (a member counts when it is a parent of another). They are chosen
 * one by one, each time the one with the largest marginal contribution: its contribution to the
 * reference population, computed with the chosen ancestors' parents cut (their genes are already
 * explained), times the share of its genes that do not come from chosen ancestors. At most
 * `ANCESTORS_MAX` are chosen, or until the unexplained share is below `UNEXPLAINED_MIN`.
 * f_a = 1 / Σ p_k² over the chosen ones.
 *
 * Computed over the members' ancestry (ancestry.ts: a subgraph numbered parents first,
 * shared with f_e): contributions once (contributions.ts, shared with f_e too), then lowered along the chosen
 * ancestor's own ancestors at each choice; an explained share is computed when an ancestor is
 * examined, up its ancestors to the chosen ones. Since neither ever favours an ancestor again, the
 * choice is a lazy greedy over a heap: a few ancestor walks per choice instead of two passes over
 * the whole ancestry (which took minutes for a whole registry).
 */
import type { Ancestry } from "./ancestry.ts"
import { geneContributions } from "./contributions.ts"

export const ANCESTORS_MAX = 1000
export const UNEXPLAINED_MIN = 0.001

/**
 * Contributions this close are a tie, won by the older ancestor (generation order, then file
 * order): sums of the same shares taken in another order differ in the last bits, and the choice
 * changes every later marginal contribution.
 */
const TIE = 1e-9
const RESIDUE = 1e-12

export interface ChosenAncestor {
  /** The animal (a node of the load's graph, or a row). */
  readonly node: number
  /** Its marginal contribution p_k. */
  readonly contribution: number
}

export interface AncestorContributions {
  /** f_a; null when no ancestor contributes. */
  readonly effective: number | null
  /** In the order chosen (largest marginal contribution first). */
  readonly chosen: ReadonlyArray<ChosenAncestor>
  /** Σ p_k over the chosen ones. */
  readonly explained: number
}

/** f_a over the reference population's `ancestry` (ancestry.ts). */
export const ancestorContributions = (
  ancestry: Ancestry,
  /** Contributions with no cut yet (contributions.ts), left as they are. */
  initial: Float64Array = geneContributions(ancestry)
): AncestorContributions => {
  const { dam, node, sire } = ancestry
  const m = node.length
  const candidate = new Uint8Array(m)
  for (let i = 0; i < m; i++) {
    if (sire[i] >= 0) candidate[sire[i]] = 1
    if (dam[i] >= 0) candidate[dam[i]] = 1
  }
  const held = initial.slice()

  // A cut only lowers contributions (a chosen ancestor no longer passes anything up) and only raises
  // explained shares, so a marginal contribution never grows: a max-heap of stale values is a heap
  // of upper bounds, and a popped ancestor whose value is still current is the largest (lazy greedy).
  const heap = new MarginalHeap(m)
  for (let i = 0; i < m; i++) if (candidate[i] === 1 && held[i] > 0) heap.push(i, held[i])

  const cut = new Uint8Array(m)
  const walk = new Climb(m, sire, dam, cut)
  const chosen: Array<ChosenAncestor> = []
  let explained = 0
  let squares = 0
  while (chosen.length < ANCESTORS_MAX && 1 - explained >= UNEXPLAINED_MIN && heap.size > 0) {
    const i = heap.top()
    const stale = heap.topValue()
    heap.pop()
    const contribution = held[i] * (1 - walk.explainedShare(i))
    // What the subtractions leave of a contribution that is gone is rounding, not genes.
    if (contribution <= RESIDUE * initial[i]) continue
    if (contribution < stale * (1 - TIE)) {
      heap.push(i, contribution)
      continue
    }
    walk.cutAbove(i, held)
    cut[i] = 1
    chosen.push({ node: node[i], contribution })
    explained += contribution
    squares += contribution * contribution
  }
  return { effective: squares === 0 ? null : 1 / squares, chosen, explained }
}

/**
 * Walks up from a node through the ancestry, stopping at chosen (cut) ancestors, youngest first:
 * the ancestors collected are sorted by local number (which is generation order) before each walk.
 */
class Climb {
  readonly #sire: Int32Array
  readonly #dam: Int32Array
  readonly #cut: Uint8Array
  readonly #marks: Int32Array
  readonly #nodes: Int32Array
  readonly #flow: Float64Array
  #stamp = 0

  constructor(m: number, sire: Int32Array, dam: Int32Array, cut: Uint8Array) {
    this.#sire = sire
    this.#dam = dam
    this.#cut = cut
    this.#marks = new Int32Array(m).fill(-1)
    this.#nodes = new Int32Array(m)
    this.#flow = new Float64Array(m)
  }

  /** `i` and its ancestors reached without passing through a cut one, in descending order. */
  #collect(i: number): number {
    const stamp = this.#stamp++
    const marks = this.#marks
    const nodes = this.#nodes
    let size = 0
    let top = 0
    marks[i] = stamp
    nodes[size++] = i
    while (top < size) {
      const v = nodes[top++]
      if (this.#cut[v] === 1 && v !== i) continue
      for (const p of [this.#sire[v], this.#dam[v]]) {
        if (p >= 0 && marks[p] !== stamp) {
          marks[p] = stamp
          nodes[size++] = p
        }
      }
    }
    nodes.subarray(0, size).sort().reverse()
    return size
  }

  /** The share of i's genes coming from chosen ancestors: Σ over them of the weight of the lines joining them. */
  explainedShare(i: number): number {
    const size = this.#collect(i)
    const nodes = this.#nodes
    const flow = this.#flow
    flow[i] = 1
    let share = 0
    for (let k = 0; k < size; k++) {
      const v = nodes[k]
      const f = flow[v]
      flow[v] = 0
      if (this.#cut[v] === 1) {
        share += f
        continue
      }
      if (this.#sire[v] >= 0) flow[this.#sire[v]] += 0.5 * f
      if (this.#dam[v] >= 0) flow[this.#dam[v]] += 0.5 * f
    }
    return share
  }

  /** Cutting i's parents: what i held no longer reaches its ancestors. */
  cutAbove(i: number, held: Float64Array): void {
    const size = this.#collect(i)
    const nodes = this.#nodes
    const flow = this.#flow
    flow[i] = held[i]
    for (let k = 0; k < size; k++) {
      const v = nodes[k]
      const f = flow[v]
      flow[v] = 0
      if (v !== i) held[v] -= f
      if (v !== i && this.#cut[v] === 1) continue
      if (this.#sire[v] >= 0) flow[this.#sire[v]] += 0.5 * f
      if (this.#dam[v] >= 0) flow[this.#dam[v]] += 0.5 * f
    }
  }
}

/** A binary max-heap of (node, value): larger values first, ties (within TIE) to the smaller node. */
class MarginalHeap {
  readonly #nodes: Int32Array
  readonly #values: Float64Array
  size = 0

  constructor(capacity: number) {
    this.#nodes = new Int32Array(capacity + 1)
    this.#values = new Float64Array(capacity + 1)
  }

  #before(a: number, b: number): boolean {
    const va = this.#values[a]
    const vb = this.#values[b]
    if (va > vb * (1 + TIE)) return true
    if (vb > va * (1 + TIE)) return false
    return this.#nodes[a] < this.#nodes[b]
  }

  #swap(a: number, b: number): void {
    const n = this.#nodes[a]
    this.#nodes[a] = this.#nodes[b]
    this.#nodes[b] = n
    const v = this.#values[a]
    this.#values[a] = this.#values[b]
    this.#values[b] = v
  }

  top(): number {
    return this.#nodes[0]
  }

  topValue(): number {
    return this.#values[0]
  }

  push(node: number, value: number): void {
    let k = this.size++
    this.#nodes[k] = node
    this.#values[k] = value
    while (k > 0) {
      const parent = (k - 1) >> 1
      if (!this.#before(k, parent)) break
      this.#swap(k, parent)
      k = parent
    }
  }

  pop(): void {
    const last = --this.size
    this.#swap(0, last)
    let k = 0
    for (;;) {
      const left = 2 * k + 1
      const right = left + 1
      let best = k
      if (left < last && this.#before(left, best)) best = left
      if (right < last && this.#before(right, best)) best = right
      if (best === k) break
      this.#swap(k, best)
      k = best
    }
  }
}
