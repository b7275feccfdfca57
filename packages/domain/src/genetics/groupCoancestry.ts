/**
 * The mean coancestry of a few animals with a group (`parente_moyenne`, design §6) without a sweep
 * over the whole registry: Colleau's indirect method (Colleau 2002, "An indirect approach to the
 * extensive calculation of relationship coefficients", Genet. Sel. Evol. 34:409–421) cut between
 * its two halves. With A = T·D·Tᵀ (inbreeding.ts), A·x is a sweep from the youngest to the oldest
 * (Tᵀ·x: each animal passes half of what it holds to each known parent), a scaling by D, and a sweep
 * back down (T·…: each animal receives half of each parent's value). The mean coancestry is A·x
 * with x the group's indicator over twice its size (f = a/2), so A·x = T·u with u = D·Tᵀ·x:
 * - u is non-zero only on the group and its ancestors, so the sweep up and the scaling by D visit
 *   them alone (`groupShares`): computed once for a group and held on those animals only;
 * - (T·u)_i = u_i + ½((T·u)_sire + (T·u)_dam) needs i's own ancestors alone
 *   (`meanCoancestryWith`): a few hundred to a few thousand animals for a horse,
 * where the whole column A·x sweeps down every record of the registry (0.3–1 s at 4.45 M records)
 * for the one or twenty animals a request shows.
 */
import { bitRank, bitRanks, bitRows, hasBit, wordsFor } from "../dataset/bits.ts"
import { mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { generationStarts } from "./pedigreeGraph.ts"

/** u = D·Tᵀ·x on the group and its ancestors (every other animal's is 0). */
export interface GroupShares {
  /** The group and its ancestors, ascending. */
  readonly rows: Uint32Array
  /** u of `rows[k]`. */
  readonly values: Float64Array
}

/**
 * The shares of the group `members` (distinct or not) in `pedigree`, `generation` being each
 * animal's longest line (a kept parent's is smaller) and `inbreeding` every animal's F; null for an
 * empty group.
 */
export const groupShares = (
  pedigree: OrderedPedigree,
  generation: ArrayLike<number>,
  inbreeding: Float32Array | Float64Array,
  members: ArrayLike<number>
): GroupShares | null => {
  const { dam, sire } = pedigree
  // The group, then its ancestors as they are met.
  const reached = new Uint32Array(wordsFor(pedigree.size))
  let met = new Int32Array(Math.max(16, 2 * members.length))
  let size = 0
  const reach = (v: number): void => {
    if (v < 0 || hasBit(reached, v)) return
    reached[v >>> 5] |= 1 << (v & 31)
    if (size === met.length) {
      const grown = new Int32Array(2 * size)
      grown.set(met)
      met = grown
    }
    met[size++] = v
  }
  for (let k = 0; k < members.length; k++) reach(members[k])
  const count = size
  if (count === 0) return null
  for (let at = 0; at < size; at++) {
    reach(sire(met[at]))
    reach(dam(met[at]))
  }

  // Numbered by rank (ascending rows: the registry's arrays are read in their order, not at random).
  const ranks = bitRanks(reached)
  const rows = new Uint32Array(size)
  bitRows(reached, rows)
  const localSire = new Int32Array(size)
  const localDam = new Int32Array(size)
  const lines = new Int32Array(size)
  for (let k = 0; k < size; k++) {
    const s = sire(rows[k])
    const d = dam(rows[k])
    localSire[k] = s < 0 ? -1 : bitRank(reached, ranks, s)
    localDam[k] = d < 0 ? -1 : bitRank(reached, ranks, d)
    lines[k] = generation[rows[k]]
  }
  const values = new Float64Array(size)
  for (let k = 0; k < count; k++) values[bitRank(reached, ranks, met[k])] = 0.5 / count

  // Up, youngest first (generation descending: a counting sort); each passes half to each parent.
  const start = generationStarts(lines)
  const ordered = new Int32Array(size)
  for (let k = 0; k < size; k++) ordered[start[lines[k]]++] = k
  for (let n = size - 1; n >= 0; n--) {
    const at = ordered[n]
    const half = 0.5 * values[at]
    if (half === 0) continue
    if (localSire[at] >= 0) values[localSire[at]] += half
    if (localDam[at] >= 0) values[localDam[at]] += half
  }
  for (let k = 0; k < size; k++) {
    const s = localSire[k]
    const d = localDam[k]
    values[k] *= mendelianVariance(inbreeding, s < 0 ? -1 : rows[s], d < 0 ? -1 : rows[d])
  }
  return { rows, values }
}

/** u of `v`: a binary search of the group's ancestry. */
const shareOf = ({ rows, values }: GroupShares, v: number): number => {
  let low = 0
  let high = rows.length - 1
  while (low <= high) {
    const mid = (low + high) >>> 1
    const r = rows[mid]
    if (r === v) return values[mid]
    if (r < v) low = mid + 1
    else high = mid - 1
  }
  return 0
}

/**
 * The mean coancestry with the group of `shares` of each of `animals`, in their order: one sweep
 * down the union of their ancestries (an ancestor shared by several is computed once).
 */
export const meanCoancestryWith = (
  pedigree: OrderedPedigree,
  generation: ArrayLike<number>,
  shares: GroupShares,
  animals: ArrayLike<number>
): Float64Array => {
  const { dam, sire } = pedigree
  const local = new Map<number, number>()
  const nodes: Array<number> = []
  const reach = (v: number): void => {
    if (v < 0 || local.has(v)) return
    local.set(v, nodes.length)
    nodes.push(v)
  }
  for (let k = 0; k < animals.length; k++) reach(animals[k])
  for (let at = 0; at < nodes.length; at++) {
    reach(sire(nodes[at]))
    reach(dam(nodes[at]))
  }
  // Parents first: a kept parent's longest line is smaller than its child's.
  const order = Int32Array.from(nodes.keys()).sort((a, b) => generation[nodes[a]] - generation[nodes[b]])
  const down = new Float64Array(nodes.length)
  for (let k = 0; k < order.length; k++) {
    const at = order[k]
    const v = nodes[at]
    const s = sire(v)
    const d = dam(v)
    down[at] = shareOf(shares, v) + 0.5 * ((s >= 0 ? down[local.get(s)!] : 0) + (d >= 0 ? down[local.get(d)!] : 0))
  }
  return Float64Array.from(animals, (v) => down[local.get(v)!])
}
