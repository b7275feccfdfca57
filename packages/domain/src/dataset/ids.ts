/**
 * Registry identifiers: a UUID as 16 bytes in unpadded base64url, 22 characters. Canonical means
 * that re-encoding the 16 bytes gives the same text (so the last character is one of `A Q g w`).
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const DECODE = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

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

export const encodeId = (bytes: Uint8Array, offset: number): string => {
  let text = ""
  let acc = 0
  let bits = 0
  for (let i = offset; i < offset + ID_BYTES; i++) {
    acc = ((acc & 0xff) << 8) | bytes[i]
    bits += 8
    while (bits >= 6) {
      bits -= 6
      text += ALPHABET[(acc >>> bits) & 0x3f]
    }
  }
  return text + ALPHABET[(acc << (6 - bits)) & 0x3f]
}

const scratch = new Uint8Array(ID_BYTES)
export const isCanonicalId = (text: string): boolean => decodeId(text, scratch, 0)
