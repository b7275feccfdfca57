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
import { bitRank } from "../dataset/bits.ts"
import { mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { groupAndAncestors, rankAnimals } from "./reachedAnimals.ts"

/** Rows by blocks of 2^16: the rows of a block share their high bits, so a share keeps a row's low 16 bits. */
const BLOCK_BITS = 16
const LOW_BITS = (1 << BLOCK_BITS) - 1

/**
 * u = D·Tᵀ·x on the group and its ancestors (every other animal's is 0). Their rows ascending, each
 * as its low 16 bits, found through the start of its block: 2 bytes a row instead of 4 (the held
 * breeds' shares are 1.6 M rows at 4.45 M records).
 */
export interface GroupShares {
  /** The low 16 bits of the group's and its ancestors' rows, ascending. */
  readonly low: Uint16Array
  /** Where the rows of block b (rows b·2^16 to (b + 1)·2^16 − 1) start in `low`, then `low`'s length. */
  readonly blocks: Uint32Array
  /** u of each row, in `low`'s order. */
  readonly values: Float64Array
}

/** Rows, ascending, as `GroupShares` keeps them. */
export const compactRows = (rows: Uint32Array): Pick<GroupShares, "low" | "blocks"> => {
  const blockCount = rows.length === 0 ? 0 : (rows[rows.length - 1] >>> BLOCK_BITS) + 1
  const blocks = new Uint32Array(blockCount + 1)
  const low = new Uint16Array(rows.length)
  for (let k = 0; k < rows.length; k++) {
    low[k] = rows[k] & LOW_BITS
    blocks[(rows[k] >>> BLOCK_BITS) + 1]++
  }
  for (let b = 0; b < blockCount; b++) blocks[b + 1] += blocks[b]
  return { low, blocks }
}

/**
 * The shares of the group `members` (distinct or not) in `pedigree`, `inbreeding` being every
 * animal's F (read once for each animal of the group's ancestry); null for an empty group.
 */
export const groupShares = (
  pedigree: OrderedPedigree,
  inbreeding: (row: number) => number,
  members: ArrayLike<number>
): GroupShares | null => {
  // The group, then its ancestors as they are met: a small breed's shares take a few milliseconds.
  const { members: count, reached } = groupAndAncestors(pedigree, members)
  if (count === 0) return null
  const { dam, ordered, ranks, rows, sire } = rankAnimals(pedigree, reached)
  const values = new Float64Array(rows.length)
  for (let k = 0; k < count; k++) values[bitRank(reached.bits, ranks, reached.at(k))] = 0.5 / count

  // Up, youngest first; each passes half to each parent, then scaled by D.
  for (let n = ordered.length - 1; n >= 0; n--) {
    const at = ordered[n]
    const half = 0.5 * values[at]
    if (half === 0) continue
    if (sire[at] >= 0) values[sire[at]] += half
    if (dam[at] >= 0) values[dam[at]] += half
  }
  const F = new Float64Array(rows.length)
  for (let k = 0; k < rows.length; k++) F[k] = inbreeding(rows[k])
  for (let k = 0; k < rows.length; k++) values[k] *= mendelianVariance(F, sire[k], dam[k])
  return { ...compactRows(rows), values }
}

/** u of `v`: a binary search of the group's ancestry within `v`'s block. */
const shareOf = ({ blocks, low, values }: GroupShares, v: number): number => {
  const block = v >>> BLOCK_BITS
  if (block + 1 >= blocks.length) return 0
  const target = v & LOW_BITS
  let first = blocks[block]
  let last = blocks[block + 1] - 1
  while (first <= last) {
    const mid = (first + last) >>> 1
    const r = low[mid]
    if (r === target) return values[mid]
    if (r < target) first = mid + 1
    else last = mid - 1
  }
  return 0
}

/**
 * The mean coancestry with the group of `shares` of each of `animals`, in their order: one sweep
 * down the union of their ancestries (an ancestor shared by several is computed once).
 */
export const meanCoancestryWith = (
  pedigree: OrderedPedigree,
  shares: GroupShares,
  animals: ArrayLike<number>
): Float64Array => {
  const { dam, generation, sire } = pedigree
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
