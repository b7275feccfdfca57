/**
 * Founder contributions and the effective number of founders f_e (Lacy 1989, "Analysis of founder
 * representation in pedigrees: founder equivalents and founder genome equivalents", Zoo Biol.
 * 8:111–123; in the form of Boichard, Maignel & Verrier 1997, Genet. Sel. Evol. 29:5–23), as design
 * §6 states it: 1/N on each member of the reference population; from the youngest to the oldest,
 * each node passes half of what it holds to each known parent. A node with both parents unknown is a
 * founder and keeps what it received; a node with one unknown parent passes half to the known one,
 * and the other half makes its unknown parent a founder of its own (a phantom).
 * f_e = 1 / Σ q_k² over the founders.
 */
import type { OrderedPedigree } from "./ordered.ts"

export interface FounderContributions {
  /** f_e; null for an empty reference population. */
  readonly effective: number | null
  /** Founders holding a contribution, phantoms included. */
  readonly founders: number
}

export const founderContributions = (pedigree: OrderedPedigree, members: ArrayLike<number>): FounderContributions => {
  const n = pedigree.size
  const { dam, order, sire } = pedigree
  const held = new Float64Array(n)
  const member = new Uint8Array(n)
  let count = 0
  for (let k = 0; k < members.length; k++) {
    if (member[members[k]] === 1) continue
    member[members[k]] = 1
    count++
  }
  if (count === 0) return { effective: null, founders: 0 }
  for (let v = 0; v < n; v++) if (member[v] === 1) held[v] = 1 / count
  let squares = 0
  let founders = 0
  for (let k = n - 1; k >= 0; k--) {
    const v = order[k]
    const h = held[v]
    if (h === 0) continue
    const s = sire(v)
    const d = dam(v)
    if (s < 0 && d < 0) {
      squares += h * h
      founders++
      continue
    }
    if (s < 0 || d < 0) {
      squares += 0.25 * h * h
      founders++
    }
    if (s >= 0) held[s] += 0.5 * h
    if (d >= 0) held[d] += 0.5 * h
  }
  return { effective: 1 / squares, founders }
}
