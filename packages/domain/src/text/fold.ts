/**
 * Folding shared by filters, search, sorting and slugs (design 2.2): Unicode NFD, marks stripped,
 * upper case, every character that is not a letter or a digit separates words.
 */
const MARKS = /\p{M}+/gu
const SEPARATORS = /[^\p{L}\p{N}]+/u

/** The folded words of a text, in order, empty words dropped. */
export const foldWords = (text: string): Array<string> => {
  const words = text.normalize("NFD").replace(MARKS, "").toUpperCase().split(SEPARATORS)
  return words.filter((word) => word.length > 0)
}

// ---------------------------------------------------------------------------------------------
// Fast paths. The loader folds and slugifies millions of names; a third of the registry's carry
// accents, which sent them through Unicode normalisation and regular expressions. Below U+0370
// (Latin-1, Latin Extended, IPA, combining marks) folding is a per-character affair: each code
// unit's contribution is computed once, here, by the very functions above (so the fast paths
// cannot drift from them), and names using only those characters are folded by table lookups.
// Per character is exact: NFD decomposes each character on its own (reordering only the marks,
// which are dropped), and upper-casing has no context rules (lower-casing has one, final sigma,
// above the table).

const TABLE_LIMIT = 0x370
/** `""`: dropped (a mark); SEPARATOR: separates words; other strings: word characters; undefined: no fast path. */
const SEPARATOR = " "
const WORD = /^[\p{L}\p{N}]+$/u
const NOT_WORD = /^[^\p{L}\p{N}]+$/u

const FOLD_TABLE: ReadonlyArray<string | undefined> = Array.from({ length: TABLE_LIMIT }, (_, code) => {
  const piece = String.fromCharCode(code).normalize("NFD").replace(MARKS, "").toUpperCase()
  return piece === "" ? "" : WORD.test(piece) ? piece : NOT_WORD.test(piece) ? SEPARATOR : undefined
})

/** Same for slugs: `""` dropped, `"-"` separates, else the piece's ASCII letters and digits. */
const SLUG_TABLE: ReadonlyArray<string | undefined> = Array.from({ length: TABLE_LIMIT }, (_, code) => {
  const piece = String.fromCharCode(code).normalize("NFD").replace(MARKS, "").toLowerCase()
  return piece === "" ? "" : /^[a-z0-9]+$/.test(piece) ? piece : /^[^a-z0-9]+$/.test(piece) ? "-" : undefined
})

/** Upper-case ASCII letters and digits in words separated by single spaces: already folded. */
const isFolded = (text: string): boolean => {
  let previous = 32
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 32) {
      if (previous === 32) return false
    } else if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false
    previous = c
  }
  return previous !== 32 || text.length === 0
}

/** A whole value folded for comparison: `"Selle Français"` and `"SELLE-FRANCAIS"` fold alike. */
export const foldValue = (text: string): string => {
  if (isFolded(text)) return text
  let folded = ""
  let pendingSeparator = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const piece = c < TABLE_LIMIT ? FOLD_TABLE[c] : undefined
    if (piece === undefined) return foldWords(text).join(" ")
    if (piece === SEPARATOR) {
      pendingSeparator = folded.length > 0
    } else if (piece !== "") {
      if (pendingSeparator) folded += " "
      pendingSeparator = false
      folded += piece
    }
  }
  return folded
}

/**
 * The character of the two-byte UTF-8 sequence at `bytes[i]`, or -1 when it is not one (the tables
 * stop below U+0370, so longer sequences are never needed) or lies past TABLE_LIMIT.
 */
const twoByteCode = (bytes: Uint8Array, i: number, end: number): number => {
  const lead = bytes[i]
  if (lead < 0xc2 || lead > 0xdf || i + 1 >= end || (bytes[i + 1] & 0xc0) !== 0x80) return -1
  const code = ((lead & 0x1f) << 6) | (bytes[i + 1] & 0x3f)
  return code < TABLE_LIMIT ? code : -1
}

/**
 * `foldValue` of the UTF-8 text `bytes[start..end]`, written as ASCII into `out` (which must hold
 * `end - start` bytes): answers its length, or -1 when the text needs more than the table (a
 * character from U+0370 on, a folded letter that is not ASCII). The loader folds names this way
 * without building their strings.
 */
export const foldUtf8 = (bytes: Uint8Array, start: number, end: number, out: Uint8Array): number => {
  let length = 0
  let pendingSeparator = false
  for (let i = start; i < end; i++) {
    let code = bytes[i]
    if (code >= 0x80) {
      code = twoByteCode(bytes, i++, end)
      if (code < 0) return -1
    }
    const piece = FOLD_TABLE[code]
    if (piece === undefined) return -1
    if (piece === SEPARATOR) {
      pendingSeparator = length > 0
    } else if (piece !== "") {
      if (pendingSeparator) out[length++] = 32
      pendingSeparator = false
      for (let k = 0; k < piece.length; k++) {
        const c = piece.charCodeAt(k)
        if (c >= 0x80) return -1
        out[length++] = c
      }
    }
  }
  return length
}

/**
 * `slug === slugify(name)` for UTF-8 bytes, compared in place: true or false, or undefined when
 * the name needs more than SLUG_TABLE (a character from U+0370 on), for the caller to compare the
 * strings instead. The loader asks it of every record; a third of the names carry accents.
 */
export const isSlugOfUtf8 = (
  bytes: Uint8Array,
  slugStart: number,
  slugEnd: number,
  nameStart: number,
  nameEnd: number
): boolean | undefined => {
  let s = slugStart
  let pendingDash = false
  for (let i = nameStart; i < nameEnd; i++) {
    let code = bytes[i]
    if (code >= 0x80) {
      if (code < 0xc2 || code > 0xdf || i + 1 >= nameEnd || (bytes[i + 1] & 0xc0) !== 0x80) return undefined
      code = ((code & 0x1f) << 6) | (bytes[++i] & 0x3f)
      if (code >= TABLE_LIMIT) return undefined
    }
    const piece = SLUG_TABLE[code]
    if (piece === undefined) return undefined
    if (piece === "-") {
      pendingDash = true
    } else if (piece !== "") {
      if (pendingDash && s > slugStart) {
        if (s >= slugEnd || bytes[s++] !== 45) return false
      }
      pendingDash = false
      for (let k = 0; k < piece.length; k++) if (s >= slugEnd || bytes[s++] !== piece.charCodeAt(k)) return false
    }
  }
  return s === slugEnd
}

/** At most this many bytes of slug per byte of name (a piece per character of one or two bytes). */
export const SLUG_BYTES_PER_NAME_BYTE = SLUG_TABLE.reduce(
  (most: number, piece, code) => (piece === undefined ? most : Math.max(most, Math.ceil(piece.length / (code < 0x80 ? 1 : 2)))),
  1
)

/**
 * `slugify` of the UTF-8 name `bytes[start..end]`, written as ASCII into `out` from `at` (which must
 * hold `SLUG_BYTES_PER_NAME_BYTE` bytes per byte of the name): answers where it ends, or -1 when the
 * name needs more than SLUG_TABLE (a character from U+0370 on), for the caller to use `slugify`.
 * The exports write millions of deduced slugs without building their names.
 */
export const slugUtf8 = (bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number => {
  const first = at
  let pendingDash = false
  for (let i = start; i < end; i++) {
    let code = bytes[i]
    if (code >= 0x80) {
      code = twoByteCode(bytes, i++, end)
      if (code < 0) return -1
    }
    const piece = SLUG_TABLE[code]
    if (piece === undefined) return -1
    if (piece === "-") {
      pendingDash = true
    } else if (piece !== "") {
      if (pendingDash && at > first) out[at++] = 45
      pendingDash = false
      for (let k = 0; k < piece.length; k++) out[at++] = piece.charCodeAt(k)
    }
  }
  return at
}

/**
 * The registry's slug of a name: folded to ASCII, lower case, runs of other characters turned
 * into one `-`, none leading or trailing (`DALIA AL SHAHANIA` → `dalia-al-shahania`).
 */
export const slugify = (name: string): string =>
  name
    .normalize("NFD")
    .replace(MARKS, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

const isAsciiAlphanumeric = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/**
 * `slug === slugify(name)`, without building the slug: the loader asks it of every record. ASCII
 * is compared directly, other characters below U+0370 through SLUG_TABLE; any other character
 * falls back to `slugify`.
 */
export const isSlugOf = (slug: string, name: string): boolean => {
  let s = 0
  let pendingDash = false
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if (c < 128) {
      if (isAsciiAlphanumeric(c)) {
        if (pendingDash && s > 0) {
          if (slug.charCodeAt(s++) !== 45) return false
        }
        pendingDash = false
        const lower = c >= 65 && c <= 90 ? c + 32 : c
        if (slug.charCodeAt(s++) !== lower) return false
      } else {
        pendingDash = true
      }
      continue
    }
    const piece = c < TABLE_LIMIT ? SLUG_TABLE[c] : undefined
    if (piece === undefined) return slug === slugify(name)
    if (piece === "-") {
      pendingDash = true
    } else if (piece !== "") {
      if (pendingDash && s > 0) {
        if (slug.charCodeAt(s++) !== 45) return false
      }
      pendingDash = false
      if (!slug.startsWith(piece, s)) return false
      s += piece.length
    }
  }
  return s === slug.length
}
