/**
 * Registry ids for generated records: UUID v4 bytes derived from (seed, index), so they need no
 * storage. The first four bytes are a bijection of the index (see `keyWord`), which makes duplicate
 * ids impossible rather than merely improbable: a duplicate would stop the load.
 */
import { encodeId, ID_BYTES } from "@equides/domain"
import { keyWord, type Rng } from "./prng.ts"

const STREAM_ID = 0x1d

const bytes = new Uint8Array(ID_BYTES)

export const generatedId = (seed: number, index: number): string => {
  for (let word = 0; word < 4; word++) {
    const value = keyWord(seed, index, STREAM_ID, word)
    bytes[word * 4] = value >>> 24
    bytes[word * 4 + 1] = (value >>> 16) & 0xff
    bytes[word * 4 + 2] = (value >>> 8) & 0xff
    bytes[word * 4 + 3] = value & 0xff
  }
  // The version and variant bits of a UUID v4, as the registry's identifiers carry them.
  bytes[6] = (bytes[6] & 0x0f) | 0x40
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  return encodeId(bytes, 0)
}

/** The ways the source's ids turn out unreadable. */
export const ID_DEFECTS = ["too-short", "too-long", "bad-character", "non-canonical"] as const
export type IdDefect = (typeof ID_DEFECTS)[number]

const BAD_CHARACTERS = ["+", "/", "=", " ", "é", "."]
// Each of A/Q/g/w (the canonical last characters) shifted by one keeps the length and the alphabet
// but sets one of the 4 padding bits.
const NON_CANONICAL: Readonly<Record<string, string>> = { A: "B", Q: "R", g: "h", w: "x" }

/** A readable id made unreadable in one of the ways the source shows. */
export const corruptId = (id: string, defect: IdDefect, rng: Rng): string => {
  switch (defect) {
    case "too-short":
      return id.slice(0, id.length - 1 - rng.below(3))
    case "too-long":
      return id + (rng.chance(0.5) ? "==" : "A")
    case "bad-character": {
      const at = rng.below(id.length)
      return id.slice(0, at) + rng.pick(BAD_CHARACTERS) + id.slice(at + 1)
    }
    case "non-canonical":
      return id.slice(0, -1) + (NON_CANONICAL[id[id.length - 1]] ?? "B")
  }
}
