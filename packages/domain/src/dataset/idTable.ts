import { decodeId, ID_BYTES } from "./ids.ts"

/**
 * Rows by id: open addressing with linear probing over a power-of-two table of rows (-1 empty).
 * The ids are random UUID bytes, but hand-made test ids are not, so the hash mixes all 16 bytes.
 */
export const hashId = (ids: Uint8Array, offset: number): number => {
  let h = 0x811c9dc5
  for (let i = offset; i < offset + ID_BYTES; i += 4) {
    const word = ids[i] | (ids[i + 1] << 8) | (ids[i + 2] << 16) | (ids[i + 3] << 24)
    h = Math.imul(h ^ word, 0x01000193)
    h ^= h >>> 15
  }
  return h >>> 0
}

export const sameId = (a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): boolean => {
  for (let i = 0; i < ID_BYTES; i++) if (a[aOffset + i] !== b[bOffset + i]) return false
  return true
}

/** The slot holding the row whose id is `key[keyOffset..]`, or the empty slot where it would go. */
export const probe = (table: Int32Array, ids: Uint8Array, key: Uint8Array, keyOffset: number): number => {
  const mask = table.length - 1
  let slot = hashId(key, keyOffset) & mask
  for (;;) {
    const row = table[slot]
    if (row < 0 || sameId(ids, row * ID_BYTES, key, keyOffset)) return slot
    slot = (slot + 1) & mask
  }
}

/**
 * Highest load factor of a table. Lookups touch one slot and the ids of the rows they pass, so a
 * fuller table costs a little more probing but half the memory of a half-empty one (32 MiB
 * instead of 64 at full scale, where 4.45 M rows fill 2^23 slots to 0.53).
 */
export const MAX_LOAD = 0.7

/** The capacity of a table for `rows` entries: the smallest power of two filled to at most MAX_LOAD. */
export const tableCapacity = (rows: number): number => {
  let capacity = 16
  while (rows > capacity * MAX_LOAD) capacity *= 2
  return capacity
}

/**
 * The table of the first `count` rows of `ids`, which must be distinct (the builder checked):
 * each row goes to the first free slot from its hash, in row order, without comparing any id.
 */
export const tableOfDistinct = (ids: Uint8Array, count: number): Int32Array => {
  const table = new Int32Array(tableCapacity(count)).fill(-1)
  const mask = table.length - 1
  for (let row = 0; row < count; row++) {
    let slot = hashId(ids, row * ID_BYTES) & mask
    while (table[slot] >= 0) slot = (slot + 1) & mask
    table[slot] = row
  }
  return table
}

const scratch = new Uint8Array(ID_BYTES)

/** The row of the record with this id text, or -1 (also for a malformed id). */
export const findRow = (table: Int32Array, ids: Uint8Array, idText: string): number => {
  if (!decodeId(idText, scratch, 0)) return -1
  return table[probe(table, ids, scratch, 0)]
}
