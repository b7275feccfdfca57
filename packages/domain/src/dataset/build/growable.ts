/** Append-only typed buffers for the builder, which does not know the row count in advance. */
type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array

interface TypedArrayConstructor<T extends TypedArray> {
  new (length: number): T
}

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
    const next = new this.#make(Math.max(needed, this.array.length * 2))
    next.set(this.array)
    this.array = next
  }

  /** A right-sized copy; the builder drops its own buffer afterwards. */
  trimmed(): T {
    return this.array.slice(0, this.length) as T
  }
}

const encoder = new TextEncoder()

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

/** Interns strings to dense codes; code 0 is the empty string (absent). */
export class Interner {
  readonly values: Array<string> = [""]
  readonly #codes = new Map<string, number>([["", 0]])

  code(value: string | undefined): number {
    if (value === undefined) return 0
    let code = this.#codes.get(value)
    if (code === undefined) {
      code = this.values.length
      this.values.push(value)
      this.#codes.set(value, code)
    }
    return code
  }
}
