/**
 * The id table while rows arrive (stage 2): every row's id is inserted (a duplicate stops the
 * load) and every parent link looked up, millions of random accesses. Each slot holds the row and
 * its whole id (16 bytes as four Int32), so that a lookup touches one slot and never the ids
 * column (a second cache miss per lookup into 16 bytes × rows). That costs 20 bytes a slot while
 * loading (168 MiB at full scale, freed at the end); the served table (`idTable.ts`, rows only,
 * same hash) is built afresh from the ids.
 */
import { MAX_LOAD } from "../idTable.ts"
import { ID_BYTES } from "../ids.ts"

const STRIDE = 5

/** The id's bytes `[offset + 4i ..]` as a little-endian Int32 (the words `hashId` mixes). */
const word = (bytes: Uint8Array, at: number): number =>
  bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)

/** `hashId` of the id whose words are given. */
const hashWords = (w0: number, w1: number, w2: number, w3: number): number => {
  let h = 0x811c9dc5
  h = Math.imul(h ^ w0, 0x01000193)
  h ^= h >>> 15
  h = Math.imul(h ^ w1, 0x01000193)
  h ^= h >>> 15
  h = Math.imul(h ^ w2, 0x01000193)
  h ^= h >>> 15
  h = Math.imul(h ^ w3, 0x01000193)
  h ^= h >>> 15
  return h >>> 0
}

export class GrowingIdTable {
  /** STRIDE Int32 per slot: row (-1 when empty), then the id's four words. */
  #slots = new Int32Array(STRIDE * 1024).fill(-1)
  #mask = 1023
  #count = 0

  /** The slot holding the id `key[offset..]`, or the empty slot where it would go. */
  #probe(w0: number, w1: number, w2: number, w3: number): number {
    const slots = this.#slots
    const mask = this.#mask
    let slot = hashWords(w0, w1, w2, w3) & mask
    for (;;) {
      const at = STRIDE * slot
      if (slots[at] < 0 || (slots[at + 1] === w0 && slots[at + 2] === w1 && slots[at + 3] === w2 && slots[at + 4] === w3)) {
        return slot
      }
      slot = (slot + 1) & mask
    }
  }

  /** Row of the id `key[offset..]`, or -1. */
  find(key: Uint8Array, offset: number): number {
    const slot = this.#probe(word(key, offset), word(key, offset + 4), word(key, offset + 8), word(key, offset + 12))
    return this.#slots[STRIDE * slot]
  }

  /** Inserts `row` (its id is `ids[row × 16..]`); answers -1, or the row already holding that id. */
  insert(ids: Uint8Array, row: number): number {
    const offset = row * ID_BYTES
    const w0 = word(ids, offset)
    const w1 = word(ids, offset + 4)
    const w2 = word(ids, offset + 8)
    const w3 = word(ids, offset + 12)
    const at = STRIDE * this.#probe(w0, w1, w2, w3)
    const slots = this.#slots
    if (slots[at] >= 0) return slots[at]
    slots[at] = row
    slots[at + 1] = w0
    slots[at + 2] = w1
    slots[at + 3] = w2
    slots[at + 4] = w3
    if (++this.#count > (this.#mask + 1) * MAX_LOAD) this.#resize(2 * (this.#mask + 1))
    return -1
  }

  /** Makes room for `rows` entries at once (the loader's estimate), instead of growing step by step. */
  expect(rows: number): void {
    let capacity = this.#mask + 1
    while (rows > capacity * MAX_LOAD) capacity *= 2
    if (capacity > this.#mask + 1) this.#resize(capacity)
  }

  #resize(capacity: number): void {
    this.#slots = this.#rehash(capacity)
    this.#mask = capacity - 1
  }

  /** The entries in a fresh table of `capacity` slots. */
  #rehash(capacity: number): Int32Array<ArrayBuffer> {
    const old = this.#slots
    const next = new Int32Array(STRIDE * capacity).fill(-1)
    const mask = capacity - 1
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at] < 0) continue
      let slot = hashWords(old[at + 1], old[at + 2], old[at + 3], old[at + 4]) & mask
      while (next[STRIDE * slot] >= 0) slot = (slot + 1) & mask
      for (let i = 0; i < STRIDE; i++) next[STRIDE * slot + i] = old[at + i]
    }
    return next
  }
}
