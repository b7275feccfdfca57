/**
 * The keys of the source's objects that the line scanner knows, as tables in which it finds a key
 * without building its string.
 */
import { QUOTE } from "./jsonSyntax.ts"

/**
 * The keys the normaliser reads in one kind of object (the line scanner's `switch`es go by index in
 * `keys`), found by a slot computed from the key's length, first two and last bytes (no two keys
 * of a list share one), then compared in full.
 */
export interface KeyTable {
  readonly keys: ReadonlyArray<Uint8Array>
  readonly slots: Uint8Array
  /** 32 − log2(slots): the shift that maps a mixed signature to a slot. */
  readonly shift: number
  /** Each key's bytes and closing quote, compared in place when the key is the one expected. */
  readonly quoted: ReadonlyArray<Uint8Array>
  /**
   * The key that came after key `k` last time (index `keys.length`: the first key of an object),
   * -1 if none: the lines of an extract list their keys in the same order, so the next key is
   * usually known before it is read.
   */
  readonly after: Int8Array
}

const signature = (length: number, first: number, second: number, last: number): number =>
  Math.imul(((length * 256 + first) * 256 + (length > 1 ? second : 0)) * 256 + last, 0x9e3779b1)

/** The smallest table (from 256 slots) in which the keys' slots are distinct. */
const keyTable = (names: ReadonlyArray<string>): KeyTable => {
  const keys = names.map((name) => Uint8Array.from(name, (c) => c.charCodeAt(0)))
  for (let bits = 8; bits <= 16; bits++) {
    const slots = new Uint8Array(1 << bits)
    const shift = 32 - bits
    const free = keys.every((key, i) => {
      const slot = signature(key.length, key[0], key[1], key[key.length - 1]) >>> shift
      if (slots[slot] !== 0) return false
      slots[slot] = i + 1
      return true
    })
    if (free) {
      const quoted = keys.map((key) => Uint8Array.from([...key, QUOTE]))
      return { keys, slots, shift, quoted, after: new Int8Array(keys.length + 1).fill(-1) }
    }
  }
  throw new Error(`key slots collide in ${names.join(", ")}`)
}

export const NO_KEYS = keyTable([])
export const LINK_FIELDS = keyTable(["id", "nom", "race", "pays", "alias"])
export const INDEX_FIELDS = keyTable(["annee", "appreciation", "code", "coefficient", "valeur"])
export const PERFORMANCE_FIELDS = keyTable(["discipline", "texte", "indices"])
export const RECORD_FIELDS = keyTable([
  "id", "slug", "nom", "race", "sexe", "robe", "annee_naissance", "statut_reproducteur", "record", "filiation_texte", "pere",
  "mere", "pere_de_mere", "performances"
])

/** The index in `table` of the key `bytes[start..start+length]`, -1 when it is none of its keys. */
export const findKey = (table: KeyTable, bytes: Uint8Array, start: number, length: number): number => {
  if (length === 0) return -1
  const found = table.slots[signature(length, bytes[start], bytes[start + 1], bytes[start + length - 1]) >>> table.shift] - 1
  if (found < 0) return -1
  const key = table.keys[found]
  if (key.length !== length) return -1
  for (let i = 0; i < length; i++) if (key[i] !== bytes[start + i]) return -1
  return found
}
