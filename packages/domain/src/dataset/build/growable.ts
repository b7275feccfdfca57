/** Append-only typed buffers for the builder, which does not know the row count in advance. */
type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array

interface TypedArrayConstructor<T extends TypedArray> {
  new (length: number): T
}

/**
 * Buffers past SMALL_BYTES are given at least LARGE_BYTES. The C allocator maps anything larger
 * than 32 MiB on its own pages, and unmaps it when freed; a smaller buffer may be carved out of
 * its heap and, freed, leave a hole there that the process keeps (measured: 100 MiB of a 1 M-row
 * load). Pages of a mapping that are never written are never resident: a large buffer costs only
 * what is used of it.
 */
const SMALL_BYTES = 64 << 10
const LARGE_BYTES = (32 << 20) + (64 << 10)

const capacityFor = (elements: number, bytesPerElement: number): number =>
  elements * bytesPerElement <= SMALL_BYTES ? elements : Math.max(elements, Math.ceil(LARGE_BYTES / bytesPerElement))

/**
 * An array needed only while the Dataset is built (a cursor, a sort key): in its own mapping when
 * large, so that freeing it gives the memory back (see SMALL_BYTES).
 */
export const temporary = <T extends Uint32Array | Float64Array>(
  make: { new (length: number): T; readonly BYTES_PER_ELEMENT: number },
  length: number
): T => new make(capacityFor(length, make.BYTES_PER_ELEMENT)).subarray(0, length) as T

/** Narrowest unsigned array able to hold every code below `count`. */
export const narrow = (codes: Uint32Array, count: number): Uint8Array | Uint16Array | Uint32Array =>
  count <= 0x100 ? Uint8Array.from(codes) : count <= 0x10000 ? Uint16Array.from(codes) : codes

export class Growable<T extends TypedArray> {
  array: T
  length = 0
  readonly #make: TypedArrayConstructor<T>

  constructor(make: TypedArrayConstructor<T>, capacity = 1024) {
    this.#make = make
    this.array = new make(capacity)
  }

  push(value: number): void {
    if (this.length === this.array.length) this.reserve(1)
    this.array[this.length++] = value
  }

  reserve(extra: number): void {
    const needed = this.length + extra
    if (needed <= this.array.length) return
    this.#resize(capacityFor(Math.max(needed, this.array.length * 2), this.array.BYTES_PER_ELEMENT))
  }

  /** Room for `total` values in all (an estimate's, not doubled). */
  reserveTotal(total: number): void {
    if (total <= this.array.length) return
    this.#resize(capacityFor(total, this.array.BYTES_PER_ELEMENT))
  }

  #resize(capacity: number): void {
    const next = new this.#make(capacity)
    next.set(this.array.subarray(0, this.length))
    this.array = next
  }

  /** Appends the first `count` values of `source` (a batch column) in one copy. */
  append(source: TypedArray, count: number): void {
    this.reserve(count)
    if (count <= 16) {
      // Batches of one row (records added one at a time): a view would cost more than the copy.
      for (let i = 0; i < count; i++) this.array[this.length++] = source[i]
      return
    }
    this.array.set(count === source.length ? source : source.subarray(0, count), this.length)
    this.length += count
  }

  /** A right-sized copy; the builder drops its own buffer afterwards. */
  trimmed(): T {
    return this.array.slice(0, this.length) as T
  }

  /**
   * The values, to keep: the buffer itself when it is (nearly) full, as it is when its size was
   * reserved from a good estimate, else a right-sized copy. Not copying a column at the end of a
   * load saves the copy and, more, the hole its buffer would leave in the allocator's heap: the
   * process's memory after a load would stay that much larger.
   */
  final(): T {
    return this.array.length - this.length <= this.length / 32 ? (this.array.subarray(0, this.length) as T) : this.trimmed()
  }
}

const encoder = new TextEncoder()
const asciiDecoder = new TextDecoder()

/** Builds a StringArena one string at a time. */
export class ArenaBuilder {
  readonly bytes = new Growable(Uint8Array, 1 << 16)
  readonly offsets = new Growable(Uint32Array)

  constructor() {
    this.offsets.push(0)
  }

  push(value: string): void {
    if (value.length > 0) {
      // UTF-8 takes at most 3 bytes per UTF-16 code unit.
      this.bytes.reserve(value.length * 3)
      const { written } = encoder.encodeInto(value, this.bytes.array.subarray(this.bytes.length))
      this.bytes.length += written
    }
    this.offsets.push(this.bytes.length)
  }

  finish(): { bytes: Uint8Array; offsets: Uint32Array } {
    return { bytes: this.bytes.trimmed(), offsets: this.offsets.trimmed() }
  }
}

/**
 * A copy of `text` that holds no other string alive. The JSON Lines reader hands over slices of
 * the text of a whole chunk (a megabyte); a slice kept in a dictionary would keep that chunk in
 * memory for the life of the Dataset. Concatenating builds a new string, which slicing flattens
 * into one of its own.
 */
export const ownString = (text: string): string => (" " + text).slice(1)

/** Interns strings to dense codes; code 0 is the empty string (absent). */
export class Interner {
  readonly values: Array<string> = [""]
  readonly #codes = new Map<string, number>([["", 0]])

  code(value: string | undefined): number {
    if (value === undefined) return 0
    // A dictionary holds UTF-8 (`Dictionary`): a lone surrogate, which only a record built in
    // memory can carry, is kept as U+FFFD, as it is in names.
    const text = value.isWellFormed() ? value : value.toWellFormed()
    let code = this.#codes.get(text)
    if (code === undefined) {
      const own = ownString(text)
      code = this.values.length
      this.values.push(own)
      this.#codes.set(own, code)
    }
    return code
  }
}

const WIDTH = 4

/**
 * Strings to dense ids (0, 1, 2… in order of first sight), for the dictionaries that see millions
 * of lookups (folded names). A `Map` keyed by strings cost about a microsecond a lookup at that
 * size; here a slot holds the hash, the id and where an ASCII copy of the string lies, so a
 * lookup reads one slot and, on an equal hash only, compares bytes (or the strings).
 */
export class StringIds {
  readonly values: Array<string> = []
  /** ASCII copies of the ASCII values, for `idOfAscii`. */
  readonly #ascii = new Growable(Uint8Array, 1 << 16)

  /**
   * WIDTH Int32 per slot: hash (0 for an empty slot; hashes are never 0), id, and where the
   * value's ASCII copy starts (-1: not ASCII) and its length. A lookup reads the slot and, on an
   * equal hash, the copy: two cache lines, no string.
   */
  #slots = new Int32Array(WIDTH * 1024)
  #mask = 1023

  /** The id of `text`; new strings are stored with `ownString`. */
  id(text: string): number {
    let hash = 0x811c9dc5
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
    hash |= 1
    const slots = this.#slots
    const mask = this.#mask
    let slot = hash & mask
    for (;;) {
      const found = slots[WIDTH * slot]
      if (found === 0) break
      if (found === hash && this.values[slots[WIDTH * slot + 1]] === text) return slots[WIDTH * slot + 1]
      slot = (slot + 1) & mask
    }
    return this.#add(ownString(text), slot, hash)
  }

  /**
   * The id of the ASCII text in `bytes[start..end]`, read in place: its hash over the bytes is
   * the hash `id` computes over the same text's character codes.
   */
  idOfAscii(bytes: Uint8Array, start: number, end: number): number {
    let hash = 0x811c9dc5
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193)
    hash |= 1
    const slots = this.#slots
    const mask = this.#mask
    const length = end - start
    let slot = hash & mask
    for (;;) {
      const at = WIDTH * slot
      const found = slots[at]
      if (found === 0) break
      if (found === hash && slots[at + 3] === length && slots[at + 2] >= 0) {
        const ascii = this.#ascii.array
        const from = slots[at + 2]
        let i = 0
        while (i < length && ascii[from + i] === bytes[start + i]) i++
        if (i === length) return slots[at + 1]
      }
      slot = (slot + 1) & mask
    }
    return this.#add(asciiDecoder.decode(bytes.subarray(start, end)), slot, hash)
  }

  #add(text: string, slot: number, hash: number): number {
    const id = this.values.length
    this.values.push(text)
    let ascii = true
    for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80
    const at = WIDTH * slot
    this.#slots[at] = hash
    this.#slots[at + 1] = id
    this.#slots[at + 2] = ascii ? this.#ascii.length : -1
    this.#slots[at + 3] = text.length
    if (ascii) {
      this.#ascii.reserve(text.length)
      for (let i = 0; i < text.length; i++) this.#ascii.array[this.#ascii.length++] = text.charCodeAt(i)
    }
    if (2 * this.values.length > this.#mask + 1) this.#grow()
    return id
  }

  /** The number of distinct strings seen. */
  get size(): number {
    return this.values.length
  }

  #grow(): void {
    const old = this.#slots
    const capacity = 2 * (this.#mask + 1)
    const slots = new Int32Array(WIDTH * capacity)
    const mask = capacity - 1
    for (let at = 0; at < old.length; at += WIDTH) {
      const hash = old[at]
      if (hash === 0) continue
      let slot = hash & mask
      while (slots[WIDTH * slot] !== 0) slot = (slot + 1) & mask
      for (let i = 0; i < WIDTH; i++) slots[WIDTH * slot + i] = old[at + i]
    }
    this.#slots = slots
    this.#mask = mask
  }
}
