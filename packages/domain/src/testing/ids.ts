/** Readable ids for tests: canonical registry ids made from small numbers. */
import { encodeId, ID_BYTES } from "../dataset/ids.ts"

/**
 * The canonical id made from `n` (and a salt, so that two generated sets differ): distinct
 * `(n, salt)` give distinct ids.
 */
export const idN = (n: number, salt = 0): string => {
  const bytes = new Uint8Array(ID_BYTES)
  new DataView(bytes.buffer).setUint32(0, n)
  new DataView(bytes.buffer).setUint32(4, salt)
  bytes[8] = 0x2d
  bytes[15] = 0x5f
  return encodeId(bytes, 0)
}

/** A canonical id that no `idN` is: the target of a dangling link. */
export const danglingId = (seed: number): string => {
  const bytes = new Uint8Array(ID_BYTES)
  new DataView(bytes.buffer).setUint32(0, seed)
  bytes[8] = 0xdd
  return encodeId(bytes, 0)
}
