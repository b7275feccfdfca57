/**
 * The animals a walk over a pedigree reaches (a group and its ancestors, an animal's ancestors
 * and their descendants), each once, as the indirect method's two halves use them
 * (groupCoancestry.ts, relationshipRow.ts): met into a bitset over every animal and a list, then
 * numbered by rank (ascending rows, so the registry's arrays are read in their order, not at
 * random), each with its reached parents by rank and in generation order for the sweeps.
 */
import { bitRank, bitRanks, bitRows, hasBit, wordsFor } from "../dataset/bits.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { generationStarts } from "./pedigreeGraph.ts"

/** A walk's animals: the bitset of those met, and the list in the order met. */
export class Reached {
  readonly bits: Uint32Array
  #list: Int32Array
  #size = 0

  /** Over `animals` animals, room for `expected` before the list grows. */
  constructor(animals: number, expected: number) {
    this.bits = new Uint32Array(wordsFor(animals))
    this.#list = new Int32Array(Math.max(16, expected))
  }

  get size(): number {
    return this.#size
  }

  /** The `k`-th animal met. */
  at(k: number): number {
    return this.#list[k]
  }

  /** Meets `v` (nothing when it is -1 or already met). */
  add(v: number): void {
    if (v < 0 || hasBit(this.bits, v)) return
    this.bits[v >>> 5] |= 1 << (v & 31)
    if (this.#size === this.#list.length) {
      const grown = new Int32Array(2 * this.#size)
      grown.set(this.#list)
      this.#list = grown
    }
    this.#list[this.#size++] = v
  }
}

/**
 * The group `members` (listed once each however often `members` lists them) and every ancestor of
 * theirs through `pedigree`'s kept links, by a walk up: the group's `members` animals come first in
 * the list, in the order listed.
 */
export const groupAndAncestors = (pedigree: OrderedPedigree, members: ArrayLike<number>): { readonly reached: Reached; readonly members: number } => {
  const reached = new Reached(pedigree.size, 2 * members.length)
  for (let k = 0; k < members.length; k++) reached.add(members[k])
  const distinct = reached.size
  for (let at = 0; at < reached.size; at++) {
    const v = reached.at(at)
    reached.add(pedigree.sire(v))
    reached.add(pedigree.dam(v))
  }
  return { reached, members: distinct }
}

/** The reached animals numbered by rank. */
export interface RankedAnimals {
  /** `bitRanks` of the bitset: an animal's rank at one word. */
  readonly ranks: Uint32Array
  /** The animals, ascending: rank → animal. */
  readonly rows: Uint32Array
  /** Each one's sire (dam) by rank, -1 when unknown or not reached. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  /** The ranks, parents before children (by longest line: a counting sort). */
  readonly ordered: Int32Array
}

/** `reached` numbered by rank in `pedigree`. */
export const rankAnimals = (pedigree: OrderedPedigree, reached: Reached): RankedAnimals => {
  const { generation } = pedigree
  const { bits, size } = reached
  const ranks = bitRanks(bits)
  const rows = new Uint32Array(size)
  bitRows(bits, rows)
  const sire = new Int32Array(size)
  const dam = new Int32Array(size)
  const lines = new Int32Array(size)
  for (let k = 0; k < size; k++) {
    const s = pedigree.sire(rows[k])
    const d = pedigree.dam(rows[k])
    sire[k] = s >= 0 && hasBit(bits, s) ? bitRank(bits, ranks, s) : -1
    dam[k] = d >= 0 && hasBit(bits, d) ? bitRank(bits, ranks, d) : -1
    lines[k] = generation[rows[k]]
  }
  const start = generationStarts(lines)
  const ordered = new Int32Array(size)
  for (let k = 0; k < size; k++) ordered[start[lines[k]]++] = k
  return { ranks, rows, sire, dam, ordered }
}
