/**
 * Registry identifiers: a UUID as 16 bytes in unpadded base64url, 22 characters. Canonical means
 * that re-encoding the 16 bytes gives the same text (so the last character is one of `A Q g w`).
 */
/** The digits of an id's text (base64url), by value. */
export const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const DECODE = new Int8Array(128).fill(-1)
for (let i = 0; i < ID_ALPHABET.length; i++) DECODE[ID_ALPHABET.charCodeAt(i)] = i

export const ID_LENGTH = 22
export const ID_BYTES = 16

/** Writes the 16 bytes of `text` at `out[offset..]`; false (and nothing reliable written) if not canonical. */
export const decodeId = (text: string, out: Uint8Array, offset: number): boolean => {
  if (text.length !== ID_LENGTH) return false
  let acc = 0
  let bits = 0
  let o = offset
  for (let i = 0; i < ID_LENGTH; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? DECODE[c] : -1
    if (v < 0) return false
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >>> bits) & 0xff
    }
  }
  // 22 chars carry 132 bits: the 4 left over must be zero for the text to be canonical.
  return (acc & 0xf) === 0
}

/**
 * `decodeId` of the ASCII text in `bytes[start..end]` (a JSON reader's view of the id), four
 * characters (24 bits, three bytes) at a time: the loader decodes three or four ids a line.
 */
export const decodeIdBytes = (bytes: Uint8Array, start: number, end: number, out: Uint8Array, offset: number): boolean => {
  if (end - start !== ID_LENGTH) return false
  let o = offset
  for (let i = start; i < start + 20; i += 4) {
    const a = bytes[i]
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    const d = bytes[i + 3]
    // DECODE covers ASCII only: any byte from 128 on is no base64url character.
    if ((a | b | c | d) >= 128) return false
    const v = (DECODE[a] << 18) | (DECODE[b] << 12) | (DECODE[c] << 6) | DECODE[d]
    if ((DECODE[a] | DECODE[b] | DECODE[c] | DECODE[d]) < 0) return false
    out[o++] = v >>> 16
    out[o++] = (v >>> 8) & 0xff
    out[o++] = v & 0xff
  }
  const e = bytes[start + 20]
  const f = bytes[start + 21]
  if ((e | f) >= 128 || (DECODE[e] | DECODE[f]) < 0) return false
  out[o] = (DECODE[e] << 2) | (DECODE[f] >>> 4)
  // 22 characters carry 132 bits: the 4 left over must be zero for the text to be canonical.
  return (DECODE[f] & 0xf) === 0
}

export const encodeId = (bytes: Uint8Array, offset: number): string => {
  let text = ""
  let acc = 0
  let bits = 0
  for (let i = offset; i < offset + ID_BYTES; i++) {
    acc = ((acc & 0xff) << 8) | bytes[i]
    bits += 8
    while (bits >= 6) {
      bits -= 6
      text += ID_ALPHABET[(acc >>> bits) & 0x3f]
    }
  }
  return text + ID_ALPHABET[(acc << (6 - bits)) & 0x3f]
}

const scratch = new Uint8Array(ID_BYTES)
export const isCanonicalId = (text: string): boolean => decodeId(text, scratch, 0)
