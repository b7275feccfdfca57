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
 * Both quantities are recomputed over the members' ancestry (a subgraph numbered like the graph)
 * after each choice: two passes per chosen ancestor.
 */
import type { PedigreeGraph } from "./pedigreeGraph.ts"

export const ANCESTORS_MAX = 1000
export const UNEXPLAINED_MIN = 0.001

/**
 * Contributions this close are a tie, won by the older ancestor (generation order, then file
 * order): sums of the same shares taken in another order differ in the last bits, and the choice
 * changes every later marginal contribution.
 */
const TIE = 1e-9

export interface ChosenAncestor {
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

export const ancestorContributions = (graph: PedigreeGraph, members: ArrayLike<number>): AncestorContributions => {
  const n = graph.size
  // The members' ancestry, oldest first, with local parent numbers.
  const local = new Int32Array(n).fill(-1)
  const weight = new Uint8Array(n)
  let count = 0
  for (let k = 0; k < members.length; k++) {
    if (weight[members[k]] === 1) continue
    weight[members[k]] = 1
    count++
  }
  const inAncestry = weight.slice()
  let m = 0
  for (let v = n - 1; v >= 0; v--) {
    if (inAncestry[v] === 0) continue
    m++
    if (graph.sire[v] >= 0) inAncestry[graph.sire[v]] = 1
    if (graph.dam[v] >= 0) inAncestry[graph.dam[v]] = 1
  }
  const node = new Int32Array(m)
  const sire = new Int32Array(m)
  const dam = new Int32Array(m)
  const base = new Float64Array(m)
  const candidate = new Uint8Array(m)
  for (let v = 0, i = 0; v < n; v++) {
    if (inAncestry[v] === 0) continue
    local[v] = i
    node[i] = v
    sire[i] = graph.sire[v] < 0 ? -1 : local[graph.sire[v]]
    dam[i] = graph.dam[v] < 0 ? -1 : local[graph.dam[v]]
    if (sire[i] >= 0) candidate[sire[i]] = 1
    if (dam[i] >= 0) candidate[dam[i]] = 1
    if (weight[v] === 1) base[i] = 1 / count
    i++
  }

  const chosen: Array<ChosenAncestor> = []
  const cut = new Uint8Array(m)
  const held = new Float64Array(m) // contribution with the chosen ancestors' parents cut
  const explainedShare = new Float64Array(m) // share of genes from chosen ancestors
  let explained = 0
  let squares = 0
  while (chosen.length < ANCESTORS_MAX && 1 - explained >= UNEXPLAINED_MIN) {
    held.set(base)
    for (let i = m - 1; i >= 0; i--) {
      if (cut[i] === 1) continue
      const half = 0.5 * held[i]
      if (sire[i] >= 0) held[sire[i]] += half
      if (dam[i] >= 0) held[dam[i]] += half
    }
    let best = -1
    let bestContribution = 0
    for (let i = 0; i < m; i++) {
      if (cut[i] === 1) {
        explainedShare[i] = 1
        continue
      }
      const share = 0.5 * ((sire[i] >= 0 ? explainedShare[sire[i]] : 0) + (dam[i] >= 0 ? explainedShare[dam[i]] : 0))
      explainedShare[i] = share
      if (candidate[i] === 0) continue
      const contribution = held[i] * (1 - share)
      if (contribution > bestContribution * (1 + TIE)) {
        best = i
        bestContribution = contribution
      }
    }
    if (best < 0) break
    cut[best] = 1
    chosen.push({ node: node[best], contribution: bestContribution })
    explained += bestContribution
    squares += bestContribution * bestContribution
  }
  return { effective: squares === 0 ? null : 1 / squares, chosen, explained }
}
