/**
 * The ancestry of a group of animals (a breed's reference population): the members and every animal
 * they descend from, as a pedigree of its own numbered parents first, so that the
 * contributions (contributions.ts), f_e (founders.ts) and f_a (ancestors.ts, Boichard, Maignel &
 * Verrier 1997, Genet. Sel. Evol. 29:5–23) walk the animals that matter to them and not the whole
 * registry, and share one collection.
 *
 * Collected by a walk up from the members (`groupAndAncestors`), then numbered by
 * generation, ties by row (`rankAnimals`: a counting sort on the longest line over the animals
 * reached, stable over their rows ascending): the order in which f_a meets tied ancestors, the
 * older generation first, then file order. Nothing the size of the registry is kept: until issue
 * 27's memory target the walk followed a generation order held in the Dataset (4 bytes a record,
 * 17 MiB at 4.45 M), youngest first over every animal, even for a breed of a few hundred.
 */
import { bitRank } from "../dataset/bits.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { groupAndAncestors, rankAnimals } from "./reachedAnimals.ts"

export interface Ancestry {
  /** Animals of the ancestry by generation, ties by row (parents first). */
  readonly node: Int32Array
  /** Local number of each one's sire (dam), or -1; always smaller than its own. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  /** 1 for the group's members (each once, however often `members` lists it). */
  readonly member: Uint8Array
  /** The group's distinct members. */
  readonly members: number
}

export const ancestryOf = (pedigree: OrderedPedigree, members: ArrayLike<number>): Ancestry => {
  const { members: distinct, reached } = groupAndAncestors(pedigree, members)
  const { dam, ordered, ranks, rows, sire } = rankAnimals(pedigree, reached)
  const m = ordered.length
  // Local numbers in the order: rank -> local, then each animal's parents through it.
  const localOfRank = new Int32Array(m)
  for (let i = 0; i < m; i++) localOfRank[ordered[i]] = i
  const node = new Int32Array(m)
  const localSire = new Int32Array(m)
  const localDam = new Int32Array(m)
  const member = new Uint8Array(m)
  for (let i = 0; i < m; i++) {
    const rank = ordered[i]
    node[i] = rows[rank]
    localSire[i] = sire[rank] < 0 ? -1 : localOfRank[sire[rank]]
    localDam[i] = dam[rank] < 0 ? -1 : localOfRank[dam[rank]]
  }
  // The group is the walk's first animals.
  for (let k = 0; k < distinct; k++) member[localOfRank[bitRank(reached.bits, ranks, reached.at(k))]] = 1
  return { node, sire: localSire, dam: localDam, member, members: distinct }
}
