/** A value's text from a line's UTF-8 bytes, decoded as is (the line scanner's strings). */

// ignoreBOM: a value starting with U+FEFF keeps it, as it does when a whole line is decoded.
export const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** An ASCII span as a string: short ones built in place (a decoder call costs more than that). */
export const asciiText = (bytes: Uint8Array, start: number, end: number): string => {
  if (end - start > 24) return decoder.decode(bytes.subarray(start, end))
  let text = ""
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i])
  return text
}

/** Well-formed UTF-8 (no overlong form, no surrogate, nothing above U+10FFFF), decoded as is. */
export const isWellFormedUtf8 = (bytes: Uint8Array, start: number, end: number): boolean => {
  let i = start
  while (i < end) {
    const b = bytes[i]
    if (b < 0x80) {
      i++
      continue
    }
    let continuations: number
    let low = 0x80
    let high = 0xbf
    if (b >= 0xc2 && b <= 0xdf) continuations = 1
    else if (b >= 0xe0 && b <= 0xef) {
      continuations = 2
      if (b === 0xe0) low = 0xa0
      else if (b === 0xed) high = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      continuations = 3
      if (b === 0xf0) low = 0x90
      else if (b === 0xf4) high = 0x8f
    } else return false
    if (i + continuations >= end) return false
    const second = bytes[i + 1]
    if (second < low || second > high) return false
    for (let k = 2; k <= continuations; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return false
    i += continuations + 1
  }
  return true
}
