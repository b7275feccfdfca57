/**
 * A progeny page's JSON body written straight as UTF-8 bytes (issue 9, item 3): the bytes
 * `jsonEncoder(Descendance)` writes for `descendance(…)`, checked equal by a property test
 * (`descendanceBody.test.ts`) and, through the server, by the comparison of both answer paths.
 *
 * Why: a page of 50 offspring went through three copies of every name (the arena's bytes decoded
 * to a string, the string escaped by `JSON.stringify`, the JSON encoded back to bytes): 30 % of an
 * executed progeny request's CPU. Here a name's bytes are copied from the arena with JSON's
 * escapes, and the dictionary values (breed, sex) are encoded once per dataset.
 *
 * The schema stays the one source of the shape: a change to `Produit` or `Descendance` that this
 * writer does not follow fails the property test.
 */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import type { StringArena } from "../dataset/columns.ts"
import {
  clampLimiteDescendance,
  clampOffsetDescendance,
  DESCENDANCE_LIMITE_DEFAUT,
  DESCENDANCE_OFFSET_DEFAUT
} from "../query/descendance.ts"
import { idOf, nomOf } from "../query/record.ts"
import { SEXES } from "../vocabulary.ts"

const utf8 = new TextEncoder()

/** JSON's own text for a string (what `JSON.stringify` writes), as bytes. */
const jsonText = (text: string): Uint8Array => utf8.encode(JSON.stringify(text))

const SEXE_JSON = SEXES.map(jsonText)

const HEX = utf8.encode("0123456789abcdef")

// A Produit's fixed parts, in the schema's key order.
const OPEN_PRODUIT = utf8.encode(`{"id":"`)
const NEXT_PRODUIT = utf8.encode(`,{"id":"`)
const NOM = utf8.encode(`","nom":`)
const RACE = utf8.encode(`,"race":`)
const SEXE = utf8.encode(`,"sexe":`)
const CLOSE_PRODUIT = utf8.encode(`,"fiche_disponible":true}`)
const YEAR = utf8.encode(`,"fiche_disponible":true,"annee_naissance":`)
const CLOSE = utf8.encode("}")

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
class Writer {
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

  bytes(bytes: Uint8Array): void {
    const n = bytes.length
    this.reserve(n)
    // A loop beats `set`'s call for the few bytes of a key or a dictionary value.
    if (n > 32) this.buffer.set(bytes, this.length)
    else for (let i = 0, at = this.length; i < n; i++) this.buffer[at + i] = bytes[i]
    this.length += n
  }

  /** String `i` of `arena` as a JSON string: its UTF-8 bytes with `JSON.stringify`'s escapes. */
  arenaString(arena: StringArena, i: number): void {
    const source = arena.bytes
    let start = arena.offsets[i]
    const end = arena.offsets[i + 1]
    // As `arenaGet` reads it: `TextDecoder` drops a leading byte order mark.
    if (end - start >= 3 && source[start] === 0xef && source[start + 1] === 0xbb && source[start + 2] === 0xbf) start += 3
    this.reserve(6 * (end - start) + 2)
    const buffer = this.buffer
    let at = this.length
    buffer[at++] = 0x22
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
    buffer[at++] = 0x22
    this.length = at
  }

  /** The body written, in a buffer of its own. */
  take(): Uint8Array {
    const body = this.buffer.slice(0, this.length)
    this.length = 0
    return body
  }
}

const writer = new Writer()

/** Each dataset's breeds as JSON strings, encoded on first use. */
const breedTexts = new WeakMap<DatasetData, Array<Uint8Array | undefined>>()

const breedText = (data: DatasetData, row: number): Uint8Array => {
  let texts = breedTexts.get(data)
  if (texts === undefined) {
    texts = []
    breedTexts.set(data, texts)
  }
  const code = data.race.codes[row]
  return texts[code] ??= jsonText(data.race.values[code])
}

/** The JSON body of `descendance(data, row, limite, offset)`, as `jsonEncoder(Descendance)` writes it. */
export const descendanceBody = (
  data: DatasetData,
  row: number,
  limite: number = DESCENDANCE_LIMITE_DEFAUT,
  offset: number = DESCENDANCE_OFFSET_DEFAUT
): Uint8Array => {
  const size = clampLimiteDescendance(limite)
  const skip = clampOffsetDescendance(offset)
  const start = data.progeny.offsets[row]
  const end = data.progeny.offsets[row + 1]
  const total = end - start
  const w = writer
  // The parent: `id`, then `nom` and `race` when not empty, then `fiche_disponible`.
  w.ascii(`{"parent":{"id":"${idOf(data, row)}"`)
  const nom = nomOf(data, row)
  if (nom !== "") {
    w.ascii(`,"nom":`)
    w.bytes(jsonText(nom))
  }
  if (data.race.values[data.race.codes[row]] !== "") {
    w.ascii(`,"race":`)
    w.bytes(breedText(data, row))
  }
  w.ascii(`,"fiche_disponible":true},"total":${total},"limite":${size},"offset":${skip},"donnees":[`)
  const first = start + Math.min(skip, total)
  for (let i = first, last = Math.min(end, start + skip + size); i < last; i++) {
    const child = data.progeny.rows[i]
    w.bytes(i === first ? OPEN_PRODUIT : NEXT_PRODUIT)
    w.ascii(idOf(data, child))
    w.bytes(NOM)
    w.arenaString(data.nom, child)
    w.bytes(RACE)
    w.bytes(breedText(data, child))
    w.bytes(SEXE)
    w.bytes(SEXE_JSON[data.sexe.codes[child] - 1])
    const year = data.year[child]
    if (year === NO_YEAR) {
      w.bytes(CLOSE_PRODUIT)
    } else {
      w.bytes(YEAR)
      w.ascii(String(year))
      w.bytes(CLOSE)
    }
  }
  w.ascii("]}")
  return w.take()
}
