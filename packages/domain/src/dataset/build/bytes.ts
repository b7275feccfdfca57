/**
 * Stage 1 on UTF-8 bytes (see `RecordSpans`): dictionary lookups and comparisons that read the
 * source's bytes in place, so that the usual value costs no string. A string is built only the
 * first time a dictionary meets a value.
 */
import { Growable, type Interner } from "./growable.ts"

// ignoreBOM: a value starting with U+FEFF keeps it, as it does when a whole line is decoded.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

export const textOfBytes = (bytes: Uint8Array, start: number, end: number): string =>
  decoder.decode(bytes.subarray(start, end))

/** FNV-1a over bytes; over an ASCII string's character codes it gives the same value. */
export const hashBytes = (bytes: Uint8Array, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193)
  return hash | 1
}

export const sameBytes = (a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number): boolean => {
  for (let i = aStart, j = bStart; i < aEnd; i++, j++) if (a[i] !== b[j]) return false
  return true
}

/**
 * Byte values to an Interner's codes. Categorical values (breeds, coats, link breeds) repeat on
 * every line; the cache answers them from the bytes, and asks the Interner (which numbers the
 * values in order of first sight, whichever path met them first) only for a value it has not seen.
 */
export class InternerCache {
  readonly #interner: Interner
  /** Two Int32 per slot: entry + 1 (0 empty), hash. */
  #slots = new Int32Array(2 * 64)
  #mask = 63
  readonly #bytes = new Growable(Uint8Array, 1024)
  readonly #offsets = new Growable(Uint32Array, 64)
  readonly #codes = new Growable(Uint32Array, 64)
  /** The entry answered last (-1 before the first). */
  #last = -1

  constructor(interner: Interner) {
    this.#interner = interner
    this.#offsets.push(0)
  }

  code(bytes: Uint8Array, start: number, end: number): number {
    // Consecutive lines (and a line's three links) often carry the same value: checked first.
    const last = this.#last
    if (last >= 0) {
      const from = this.#offsets.array[last]
      if (this.#offsets.array[last + 1] - from === end - start && sameBytes(bytes, start, end, this.#bytes.array, from)) {
        return this.#codes.array[last]
      }
    }
    this.#last = this.#entry(bytes, start, end)
    return this.#codes.array[this.#last]
  }

  /** The cache entry of the value, created (and its code asked of the Interner) when new. */
  #entry(bytes: Uint8Array, start: number, end: number): number {
    const hash = hashBytes(bytes, start, end)
    const mask = this.#mask
    let slot = hash & mask
    for (;;) {
      const entry = this.#slots[2 * slot] - 1
      if (entry < 0) break
      if (this.#slots[2 * slot + 1] === hash) {
        const from = this.#offsets.array[entry]
        if (this.#offsets.array[entry + 1] - from === end - start && sameBytes(bytes, start, end, this.#bytes.array, from)) {
          return entry
        }
      }
      slot = (slot + 1) & mask
    }
    const code = this.#interner.code(textOfBytes(bytes, start, end))
    const entry = this.#codes.length
    this.#codes.push(code)
    this.#bytes.reserve(end - start)
    this.#bytes.array.set(bytes.subarray(start, end), this.#bytes.length)
    this.#bytes.length += end - start
    this.#offsets.push(this.#bytes.length)
    this.#slots[2 * slot] = entry + 1
    this.#slots[2 * slot + 1] = hash
    if (2 * this.#codes.length > mask + 1) this.#grow()
    return entry
  }

  #grow(): void {
    const old = this.#slots
    const capacity = old.length
    const slots = new Int32Array(2 * capacity)
    const mask = capacity - 1
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] === 0) continue
      let slot = old[i + 1] & mask
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask
      slots[2 * slot] = old[i]
      slots[2 * slot + 1] = old[i + 1]
    }
    this.#slots = slots
    this.#mask = mask
  }
}
