/**
 * Founder contributions and the effective number of founders f_e (Lacy 1989, "Analysis of founder
 * representation in pedigrees: founder equivalents and founder genome equivalents", Zoo Biol.
 * 8:111–123; in the form of Boichard, Maignel & Verrier 1997, Genet. Sel. Evol. 29:5–23), as design
 * §6 states it: 1/N on each member of the reference population; from the youngest to the oldest,
 * each node passes half of what it holds to each known parent (contributions.ts). A node with both
 * parents unknown is a founder and keeps what it received; a node with one unknown parent passes
 * half to the known one, and the other half makes its unknown parent a founder of its own (a
 * phantom). f_e = 1 / Σ q_k² over the founders. Computed over the members' ancestry (ancestry.ts)
 * and from the contributions f_a starts from, both of which `diversityOf` computes once.
 */
import type { Ancestry } from "./ancestry.ts"
import { geneContributions } from "./contributions.ts"

export interface FounderContributions {
  /** f_e; null for an empty reference population. */
  readonly effective: number | null
  /** Founders holding a contribution, phantoms included. */
  readonly founders: number
}

/** f_e over the reference population's `ancestry` (ancestry.ts). */
export const founderContributions = (
  ancestry: Ancestry,
  contributions: Float64Array = geneContributions(ancestry)
): FounderContributions => {
  const { dam, members: count, sire } = ancestry
  if (count === 0) return { effective: null, founders: 0 }
  let squares = 0
  let founders = 0
  for (let i = contributions.length - 1; i >= 0; i--) {
    const h = contributions[i]
    if (h === 0) continue
    if (sire[i] < 0 && dam[i] < 0) {
      squares += h * h
      founders++
    } else if (sire[i] < 0 || dam[i] < 0) {
      squares += 0.25 * h * h
      founders++
    }
  }
  return { effective: 1 / squares, founders }
}
