/**
 * Which representations were asked for recently: the response cache keeps a representation on
 * its second request, not its first (the "doorkeeper" of TinyLFU, a CDN's "cache on second hit").
 * Under traffic that never repeats (a crawler walking ids, people typing names) a cache that keeps
 * every answer only churns: each kept answer is promoted to the old generation of the server's
 * heap and evicted later, so the heap is collected in full every few hundred milliseconds with
 * pauses of 4–8 ms that every request waits through, probes and 304s included. A URI asked for
 * twice is kept from its second answer on.
 *
 * A direct-mapped table of 32-bit fingerprints: a key is remembered until another key falls in its
 * slot, so the table remembers about as many recent keys as it has slots, in a fixed typed array
 * that the collector never walks (a key outlives k later keys with probability (1 − 1/slots)^k).
 * Two keys of the same fingerprint count as one (a new key meets its slot's fingerprint once in
 * 2^32 / slots): a response then kept on its first request, which costs only room in the cache.
 */

/** A key's fingerprint, never 0 (an empty slot). */
const fingerprint = (key: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619)
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d)
  return (h ^ (h >>> 12)) >>> 0 || 1
}

export class Doorkeeper {
  private readonly slots: Uint32Array
  private readonly mask: number

  /** At least `keys` slots, rounded up to a power of two. */
  constructor(keys: number) {
    let size = 1
    while (size < keys) size *= 2
    this.slots = new Uint32Array(size)
    this.mask = size - 1
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.slots.byteLength
  }

  /** `true` when `key` was offered before and is still remembered; remembers it otherwise. */
  seenBefore(key: string): boolean {
    const print = fingerprint(key)
    const slot = print & this.mask
    if (this.slots[slot] === print) return true
    this.slots[slot] = print
    return false
  }
}
