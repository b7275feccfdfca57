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

/** A table sized for `rows` entries at a load factor of at most one half. */
export const emptyTable = (rows: number): Int32Array => {
  let capacity = 16
  while (capacity < rows * 2) capacity *= 2
  return new Int32Array(capacity).fill(-1)
}

/** Re-inserts the first `count` rows of `ids` into a fresh table of the right size. */
export const rebuildTable = (ids: Uint8Array, count: number, capacityFor: number): Int32Array => {
  const table = emptyTable(capacityFor)
  for (let row = 0; row < count; row++) table[probe(table, ids, ids, row * ID_BYTES)] = row
  return table
}

const scratch = new Uint8Array(ID_BYTES)

/** The row of the record with this id text, or -1 (also for a malformed id). */
export const findRow = (table: Int32Array, ids: Uint8Array, idText: string): number => {
  if (!decodeId(idText, scratch, 0)) return -1
  return table[probe(table, ids, scratch, 0)]
}
