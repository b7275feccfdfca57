/**
 * Founder contributions and the effective number of founders f_e (Lacy 1989, "Analysis of founder
 * representation in pedigrees: founder equivalents and founder genome equivalents", Zoo Biol.
 * 8:111–123; in the form of Boichard, Maignel & Verrier 1997, Genet. Sel. Evol. 29:5–23), as design
 * §6 states it: 1/N on each member of the reference population; from the youngest to the oldest,
 * each node passes half of what it holds to each known parent. A node with both parents unknown is a
 * founder and keeps what it received; a node with one unknown parent passes half to the known one,
 * and the other half makes its unknown parent a founder of its own (a phantom).
 * f_e = 1 / Σ q_k² over the founders. Computed over the members' ancestry (ancestry.ts), which
 * `statsGenetique` shares with f_a and the generation interval.
 */
import { type Ancestry, ancestryOf } from "./ancestry.ts"
import type { OrderedPedigree } from "./ordered.ts"

export interface FounderContributions {
  /** f_e; null for an empty reference population. */
  readonly effective: number | null
  /** Founders holding a contribution, phantoms included. */
  readonly founders: number
}

export const founderContributions = (
  pedigree: OrderedPedigree,
  members: ArrayLike<number>,
  ancestry: Ancestry = ancestryOf(pedigree, members)
): FounderContributions => {
  const { dam, member, members: count, sire } = ancestry
  if (count === 0) return { effective: null, founders: 0 }
  const m = member.length
  const held = new Float64Array(m)
  for (let i = 0; i < m; i++) if (member[i] === 1) held[i] = 1 / count
  let squares = 0
  let founders = 0
  for (let i = m - 1; i >= 0; i--) {
    const h = held[i]
    if (h === 0) continue
    const s = sire[i]
    const d = dam[i]
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
