/**
 * Each animal's expected contribution to a group's genes (the probability of gene origin; James
 * 1972, "The founder effect and response to artificial selection", Genet. Res. 19:8–16; Boichard,
 * Maignel & Verrier 1997, Genet. Sel. Evol. 29:5–23), over the group's ancestry (ancestry.ts): 1/N
 * on each of the N members; from the youngest to the oldest, each animal passes half of what it
 * holds to each known parent. f_e reads it at the founders (founders.ts), f_a before its first
 * choice (ancestors.ts): computed once for both.
 */
import type { Ancestry } from "./ancestry.ts"

/** What each animal of `ancestry` holds once every younger one has passed its share up. */
export const geneContributions = ({ dam, member, members, sire }: Ancestry): Float64Array => {
  const m = member.length
  const held = new Float64Array(m)
  if (members === 0) return held
  for (let i = 0; i < m; i++) if (member[i] === 1) held[i] = 1 / members
  for (let i = m - 1; i >= 0; i--) {
    const h = held[i]
    if (h === 0) continue
    const half = 0.5 * h
    if (sire[i] >= 0) held[sire[i]] += half
    if (dam[i] >= 0) held[dam[i]] += half
  }
  return held
}
