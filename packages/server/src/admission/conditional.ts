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


const seedLanes = (text: string): readonly [number, number] => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  return [h1, h2]
}

/**
 * Two hexadecimal digits for each byte value. `Number.prototype.toString(16)` takes V8's generic
 * radix conversion for the lanes above 2^31 (half of them): the two lanes cost about 500 ns that
 * way, 64 ns through this table, and the ETag is computed for every request.
 */
const HEX_PAIRS: ReadonlyArray<string> = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

const hex8 = (n: number): string =>
  HEX_PAIRS[n >>> 24]! + HEX_PAIRS[(n >>> 16) & 0xff]! + HEX_PAIRS[(n >>> 8) & 0xff]! + HEX_PAIRS[n & 0xff]!

/**
 * An ETag maker for one dataset served by one release: `(uri, coding, variant)` → a strong ETag
 * (`"<16 hex digits>"`). `variant` tells apart representations of one URI chosen by other request
 * headers (`html` for `GET /` served as a page; empty otherwise).
 */
export const makeEtagger = (fingerprint: string, ingestedAt: string, release: ReleaseInfo) => {
  const [s1, s2] = seedLanes(`${fingerprint}\u0000${ingestedAt}\u0000${release.version}\u0000${release.build}\u0000`)
  return (uri: string, coding: string, variant: string): string => {
    let h1 = s1
    let h2 = s2
    for (let i = 0; i < uri.length; i++) {
      const c = uri.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 2654435761)
      h2 = Math.imul(h2 ^ c, 1597334677)
    }
    const tail = `\u0000${coding}\u0000${variant}`
    for (let i = 0; i < tail.length; i++) {
      const c = tail.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 2654435761)
      h2 = Math.imul(h2 ^ c, 1597334677)
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
    return `"${hex8(h2)}${hex8(h1)}"`
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
