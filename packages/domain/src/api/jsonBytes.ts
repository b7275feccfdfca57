/**
 * JSON bodies written straight as UTF-8 bytes (issue 9, item 3): a growing buffer, names and
 * dictionary values (breed, coat) copied from the dataset's shared bytes with `JSON.stringify`'s
 * escapes, the four sexes encoded once. Used by the progeny page (`descendanceBody.ts`), the pedigree
 * (`pedigreeBody.ts`) and the list's page of summaries (`resumePageBody.ts`), each checked byte
 * for byte against its schema's encoding by a property test.
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Dictionary, StringArena } from "../dataset/columns.ts"
import { ID_BYTES, ID_LENGTH } from "../dataset/ids.ts"
import { ID_CODES } from "../query/record.ts"
import { SEXES } from "../vocabulary.ts"

/** Typed by what it does, not as Node's `util.TextEncoder`: the package's declarations must not need Node's types. */
export const utf8: {
  encode(text: string): Uint8Array
  encodeInto(text: string, into: Uint8Array): { read: number; written: number }
} = new TextEncoder()

/** JSON's own text for a string (what `JSON.stringify` writes), as bytes. */
export const jsonText = (text: string): Uint8Array => utf8.encode(JSON.stringify(text))

const HEX = utf8.encode("0123456789abcdef")

/** `JSON.stringify`'s short escapes, by byte (0 where it writes `\u00XX`, or nothing). */
const SHORT_ESCAPE = new Uint8Array(0x60)
SHORT_ESCAPE[0x08] = 0x62 // b
SHORT_ESCAPE[0x09] = 0x74 // t
SHORT_ESCAPE[0x0a] = 0x6e // n
SHORT_ESCAPE[0x0c] = 0x66 // f
SHORT_ESCAPE[0x0d] = 0x72 // r
SHORT_ESCAPE[0x22] = 0x22 // "
SHORT_ESCAPE[0x5c] = 0x5c // \

/** A growing byte buffer, reused from one body to the next (bodies are copied out exact). */
export class Writer {
  buffer = new Uint8Array(16 * 1024)
  length = 0

  reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes))
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }

  /** Text known to be ASCII (keys, numbers, ids). */
  ascii(text: string): void {
    this.reserve(text.length)
    const buffer = this.buffer
    let at = this.length
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i)
    this.length = at
  }

  /** A finite number as `JSON.stringify` writes it; a year's four digits without making its string. */
  int(n: number): void {
    if (!(n >= 1000 && n <= 9999 && n % 1 === 0)) return this.ascii(String(n))
    this.reserve(4)
    const buffer = this.buffer
    const at = this.length
    buffer[at] = 0x30 + Math.floor(n / 1000)
    buffer[at + 1] = 0x30 + (Math.floor(n / 100) % 10)
    buffer[at + 2] = 0x30 + (Math.floor(n / 10) % 10)
    buffer[at + 3] = 0x30 + (n % 10)
    this.length = at + 4
  }

  bytes(bytes: Uint8Array): void {
    const n = bytes.length
    this.reserve(n)
    // A loop beats `set`'s call for the few bytes of a key or a dictionary value.
    if (n > 32) this.buffer.set(bytes, this.length)
    else for (let i = 0, at = this.length; i < n; i++) this.buffer[at + i] = bytes[i]
    this.length += n
  }

  /**
   * The row's identifier, as `idOf` spells it (base64url of its 16 bytes, 22 characters), written
   * from the id column without making the string first.
   */
  id(data: DatasetData, row: number): void {
    this.reserve(ID_LENGTH)
    const ids = data.ids
    const codes = ID_CODES
    const buffer = this.buffer
    let at = this.length
    let o = row * ID_BYTES
    for (const end = o + 15; o < end; o += 3) {
      const x = (ids[o] << 16) | (ids[o + 1] << 8) | ids[o + 2]
      buffer[at] = codes[x >>> 18]
      buffer[at + 1] = codes[(x >>> 12) & 63]
      buffer[at + 2] = codes[(x >>> 6) & 63]
      buffer[at + 3] = codes[x & 63]
      at += 4
    }
    buffer[at] = codes[ids[o] >>> 2]
    buffer[at + 1] = codes[(ids[o] << 4) & 63]
    this.length = at + 2
  }

  /** String `i` of `arena` as a JSON string: its UTF-8 bytes with `JSON.stringify`'s escapes. */
  arenaString(arena: StringArena, i: number): void {
    this.utf8String(arena.bytes, arena.offsets[i], arena.offsets[i + 1])
  }

  /**
   * Value `code` of a dictionary as a JSON string, as `dictionaryValue` reads it (a leading byte
   * order mark kept), from the shared bytes: no encoding kept per value and thread, where a
   * polluted `race` has hundreds of thousands of values.
   */
  dictionaryString(values: Dictionary, code: number): void {
    this.utf8String(values.bytes, values.offsets[code], values.offsets[code + 1])
  }

  /** UTF-8 bytes `start..end` of `source` as a JSON string, with `JSON.stringify`'s escapes. */
  private utf8String(source: Uint8Array, start: number, end: number): void {
    this.reserve(2)
    this.buffer[this.length++] = 0x22
    this.jsonContent(source, start, end)
    this.buffer[this.length++] = 0x22
  }

  /** UTF-8 bytes `start..end` of `source` inside a JSON string (no quotes), with `JSON.stringify`'s escapes. */
  jsonContent(source: Uint8Array, start: number, end: number): void {
    this.reserve(6 * (end - start) + 1)
    const buffer = this.buffer
    let at = this.length
    for (let k = start; k < end; k++) {
      const byte = source[k]
      if (byte >= 0x20 && byte !== 0x22 && byte !== 0x5c) {
        buffer[at++] = byte
        continue
      }
      buffer[at++] = 0x5c
      const short = SHORT_ESCAPE[byte]
      if (short !== 0) {
        buffer[at++] = short
      } else {
        buffer[at++] = 0x75 // u
        buffer[at++] = 0x30
        buffer[at++] = 0x30
        buffer[at++] = HEX[byte >>> 4]
        buffer[at++] = HEX[byte & 15]
      }
    }
    this.length = at
  }

  /** UTF-8 bytes `start..end` of `source`, as they are. */
  raw(source: Uint8Array, start: number, end: number): void {
    const n = end - start
    this.reserve(n)
    if (n > 32) this.buffer.set(source.subarray(start, end), this.length)
    else for (let i = 0, at = this.length; i < n; i++) this.buffer[at + i] = source[start + i]
    this.length += n
  }

  /** `text` as UTF-8, as it is (a JSON text already escaped, a number). */
  text(text: string): void {
    this.reserve(3 * text.length)
    this.length += utf8.encodeInto(text, this.buffer.subarray(this.length)).written
  }

  /**
   * The bytes written since `start` made one CSV cell (RFC 4180, as `csvCell` writes it): quoted,
   * their quotes doubled, when they hold a comma, a quote or a line break. Those are ASCII bytes,
   * never part of a longer UTF-8 sequence, so the bytes are tested as the text would be.
   */
  csvCellFrom(start: number): void {
    let buffer = this.buffer
    let quotes = 0
    let special = false
    for (let k = start; k < this.length; k++) {
      const byte = buffer[k]
      if (byte === 0x22) {
        quotes++
        special = true
      } else if (byte === 0x2c || byte === 0x0a || byte === 0x0d) special = true
    }
    if (!special) return
    this.reserve(quotes + 2)
    buffer = this.buffer
    // Moved right from the end, each quote doubled: the cell's new bytes never overwrite unread ones.
    let to = this.length + quotes + 1
    buffer[to--] = 0x22
    for (let from = this.length - 1; from >= start; from--) {
      const byte = buffer[from]
      buffer[to--] = byte
      if (byte === 0x22) buffer[to--] = 0x22
    }
    buffer[to] = 0x22
    this.length += quotes + 2
  }

  /** The body written, in a buffer of its own. */
  take(): Uint8Array {
    const body = this.buffer.slice(0, this.length)
    this.length = 0
    return body
  }
}

const threadWriter = new Writer()

/**
 * The one writer of this thread, emptied: every body starts from it. Emptied here rather than
 * trusted to the last body's `take()`: a body that threw midway left its bytes, and the next body
 * would have followed them (invalid JSON under a 200, and kept by the response cache).
 */
export const emptyWriter = (): Writer => {
  threadWriter.length = 0
  return threadWriter
}

const NOM = utf8.encode(`","nom":`)
const RACE = utf8.encode(`,"race":`)
/** `,"sexe":<sex>` by sex code (1..4). */
const SEXE_TAILS = ["", ...SEXES].map((sexe) => utf8.encode(`,"sexe":${JSON.stringify(sexe)}`))

/**
 * A row's identity as a `Produit` and a `Noeud` both begin, written after their `{"id":"`:
 * `<id>","nom":<name>,"race":<breed>,"sexe":<sex>`.
 */
export const writeIdentity = (w: Writer, data: DatasetData, row: number): void => {
  w.id(data, row)
  w.bytes(NOM)
  w.arenaString(data.nom, row)
  w.bytes(RACE)
  w.dictionaryString(data.race.values, data.race.codes[row])
  w.bytes(SEXE_TAILS[data.sexe.codes[row]])
}
