/**
 * Validators before execution (spec, Caching; design 3). The ETag of a response is known before
 * the handler runs, because neither the data nor the code changes while the process lives: it is
 * a hash of the dataset's fingerprint (`empreinte_source` and `ingere_le`), the release (API
 * version and build id, `release.ts`: the same URI on the same data may be written otherwise by
 * another build), the request's path and query as received, the negotiated content-coding and,
 * for `GET /` only, the negotiated media type (HTML or JSON). So `If-None-Match` is compared
 * before anything is executed.
 *
 * The hash is fast and non-cryptographic (64 bits from two 32-bit multiply-xor lanes, cyrb53's
 * mixing), seeded once with the fingerprint and the release: per request it costs one pass over
 * the URI. A collision would only matter between two representations of the same URI (caches key
 * by URI; the response cache checks the URI too).
 */
import type { ReleaseInfo } from "../release.ts"

/** The character codes of the hexadecimal digits, lowercase. */
const HEX_CODES = Uint8Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0))

/** The code of the hexadecimal digit of `n` at bit `shift` (28 for the first of eight). */
const digit = (n: number, shift: number): number => HEX_CODES[(n >>> shift) & 0xf]!

/** The hash's two lanes while an ETag is made (one array for the module: no allocation a request). */
const lanes = new Int32Array(2)

/** Mixes `text` into `lanes`, after a NUL when `separated`. */
const mixInto = (text: string, separated: boolean): void => {
  let h1 = lanes[0]
  let h2 = lanes[1]
  if (separated) {
    h1 = Math.imul(h1, 2654435761)
    h2 = Math.imul(h2, 1597334677)
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  lanes[0] = h1
  lanes[1] = h2
}

/**
 * An ETag maker for one dataset served by one release: `(uri, coding, variant)` → a strong ETag
 * (`"<16 hex digits>"`). `variant` tells apart representations of one URI chosen by other request
 * headers (`html` for `GET /` served as a page; empty otherwise).
 *
 * The ETag is computed for every request on the server's thread, so it allocates one string, the
 * ETag itself: the coding and the variant are hashed where they are (no `\0coding\0variant`
 * string), and the 18 characters are written by one `String.fromCharCode` (its digits by a
 * table, not `Number.prototype.toString(16)`, whose radix conversion cost about 500 ns for a lane
 * above 2^31). Concatenating hexadecimal pairs made seven intermediate strings, about 300 bytes a
 * request (`docs/decisions.md`).
 */
export const makeEtagger = (fingerprint: string, ingestedAt: string, release: ReleaseInfo) => {
  // cyrb53's seeds, then the fingerprint and the release: the lanes every ETag starts from.
  lanes[0] = 0xdeadbeef
  lanes[1] = 0x41c6ce57
  mixInto(`${fingerprint}\u0000${ingestedAt}\u0000${release.version}\u0000${release.build}\u0000`, false)
  const s1 = lanes[0]
  const s2 = lanes[1]
  return (uri: string, coding: string, variant: string): string => {
    lanes[0] = s1
    lanes[1] = s2
    // `\0`, the coding, `\0`, the variant: NUL is 0, so its xor leaves a lane as it is.
    mixInto(uri, false)
    mixInto(coding, true)
    mixInto(variant, true)
    let h1 = lanes[0]
    let h2 = lanes[1]
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
    return String.fromCharCode(
      0x22,
      digit(h2, 28), digit(h2, 24), digit(h2, 20), digit(h2, 16), digit(h2, 12), digit(h2, 8), digit(h2, 4), digit(h2, 0),
      digit(h1, 28), digit(h1, 24), digit(h1, 20), digit(h1, 16), digit(h1, 12), digit(h1, 8), digit(h1, 4), digit(h1, 0),
      0x22
    )
  }
}

/**
 * Whether `If-None-Match` is `*` (RFC 9110 13.1.2), which matches any *current* representation:
 * an unknown id or path has none (its answer is a 404), and that is known only once the request
 * is answered, so admission leaves it to the answer (`Gatekeeper.executed`) or to a kept one.
 */
export const isWildcard = (header: string): boolean => header === "*" || (header.includes("*") && header.trim() === "*")

/**
 * Whether `If-None-Match` lists an entity tag that matches `etag` (RFC 9110 13.1.2), compared
 * with the weak comparison (a `W/` prefix is ignored on either side). A malformed member never
 * matches; `*` is not an entity tag (see `isWildcard`).
 */
export const ifNoneMatchMatches = (header: string, etag: string): boolean => {
  if (header === etag) return true
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag
  let i = 0
  const n = header.length
  while (i < n) {
    // Skip separators and whitespace.
    let c = header.charCodeAt(i)
    while (i < n && (c === 0x20 || c === 0x09 || c === 0x2c)) c = header.charCodeAt(++i)
    if (i >= n) break
    if (header.startsWith("W/", i)) i += 2
    if (header.charCodeAt(i) !== 0x22 /* " */) return false
    const start = i
    const close = header.indexOf("\"", i + 1)
    if (close < 0) return false
    i = close + 1
    const matches = i - start === opaque.length && header.startsWith(opaque, start)
    // A member ends at a comma or at the end: `"tag"x` and `"a""tag"` are malformed.
    while (i < n && (header.charCodeAt(i) === 0x20 || header.charCodeAt(i) === 0x09)) i++
    if (i < n && header.charCodeAt(i) !== 0x2c) return false
    if (matches) return true
  }
  return false
}
