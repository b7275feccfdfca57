/**
 * The ancestry of a group of animals (a breed's reference population): the members and every animal
 * they descend from, as a pedigree of its own numbered in the whole pedigree's order, so that the
 * contributions (contributions.ts), f_e (founders.ts) and f_a (ancestors.ts, Boichard, Maignel &
 * Verrier 1997, Genet. Sel. Evol. 29:5–23) walk the animals that matter to them and not the whole
 * registry, and share one collection.
 *
 * Collected by one pass over the pedigree's order, youngest first, which reads a bitset of the
 * ancestry (one bit an animal) and nothing else of the animals left out; the parents' local numbers
 * are then found by rank in that bitset. Nothing the size of the registry is allocated but two
 * bitsets and the ranks (3 bits a record in all, 1.7 MB at 4.45 M), where numbering through
 * registry-sized tables cost four arrays of that size and two passes over the order with each
 * animal's parents read twice.
 */
import { bitRank, bitRanks, hasBit, setBit, wordsFor } from "../dataset/bits.ts"
import type { OrderedPedigree } from "./ordered.ts"

export interface Ancestry {
  /** Animals of the ancestry: the pedigree's order restricted to them (parents first). */
  readonly node: Int32Array
  /** Local number of each one's sire (dam), or -1; always smaller than its own. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  /** 1 for the group's members (each once, however often `members` lists it). */
  readonly member: Uint8Array
  /** The group's distinct members. */
  readonly members: number
}

/** `array` with room for `size` items at least, what it held kept. */
const withRoom = (array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> => {
  if (size <= array.length) return array
  const larger = new Int32Array(Math.max(size, 2 * array.length))
  larger.set(array)
  return larger
}

export const ancestryOf = (pedigree: OrderedPedigree, members: ArrayLike<number>): Ancestry => {
  const { dam, order, sire, size } = pedigree
  const inAncestry = new Uint32Array(wordsFor(size))
  const isMember = new Uint32Array(wordsFor(size))
  let distinct = 0
  for (let k = 0; k < members.length; k++) {
    const v = members[k]
    if (hasBit(isMember, v)) continue
    setBit(isMember, v)
    setBit(inAncestry, v)
    distinct++
  }
  // Youngest first, as the order goes: an animal is reached before it is passed, and its parents
  // are read while the walk is at it (the order keeps a generation's animals close to file order,
  // so those reads are close to one another, where a walk up from the members would jump).
  let walked = new Int32Array(Math.max(16, 2 * distinct))
  let walkedSires = new Int32Array(walked.length)
  let walkedDams = new Int32Array(walked.length)
  let m = 0
  for (let k = size - 1; k >= 0; k--) {
    const v = order[k]
    if (!hasBit(inAncestry, v)) continue
    const s = sire(v)
    const d = dam(v)
    if (m === walked.length) {
      walked = withRoom(walked, m + 1)
      walkedSires = withRoom(walkedSires, m + 1)
      walkedDams = withRoom(walkedDams, m + 1)
    }
    walked[m] = v
    walkedSires[m] = s
    walkedDams[m] = d
    m++
    if (s >= 0) setBit(inAncestry, s)
    if (d >= 0) setBit(inAncestry, d)
  }

  // Local numbers, oldest first: the walk's arrays reversed in place, each parent replaced by its
  // local number, found by the parent's rank among the ancestry's animals.
  const ranks = bitRanks(inAncestry)
  const localByRank = new Int32Array(m)
  const member = new Uint8Array(m)
  for (let j = 0; j < m; j++) {
    const v = walked[j]
    const i = m - 1 - j
    localByRank[bitRank(inAncestry, ranks, v)] = i
    if (hasBit(isMember, v)) member[i] = 1
  }
  const local = (parent: number): number => (parent < 0 ? -1 : localByRank[bitRank(inAncestry, ranks, parent)])
  for (let j = 0, i = m - 1; j <= i; j++, i--) {
    const v = walked[j]
    walked[j] = walked[i]
    walked[i] = v
    const s = local(walkedSires[j])
    walkedSires[j] = local(walkedSires[i])
    walkedSires[i] = s
    const d = local(walkedDams[j])
    walkedDams[j] = local(walkedDams[i])
    walkedDams[i] = d
  }
  return {
    node: walked.subarray(0, m),
    sire: walkedSires.subarray(0, m),
    dam: walkedDams.subarray(0, m),
    member,
    members: distinct
  }
}
