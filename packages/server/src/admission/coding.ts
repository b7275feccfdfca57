/**
 * Compression (spec, Caching 4; design 3): `br`, `gzip` or `deflate` by the q-values of
 * `Accept-Encoding`, for bodies of 1 KiB or more. The coding is negotiated before the handler runs
 * (it is part of the ETag), the body compressed once and kept in the response cache by ETag.
 *
 * `HttpMiddleware.compression` of Effect 4.1 exists but does not fit: it negotiates by server
 * preference order rather than by q-value, negotiates after the handler (the ETag needs the coding
 * before), streams every body through the platform's compressor on every request, and turns a
 * strong ETag into a weak one. Here: `node:zlib` synchronous calls (bodies are at most a few
 * hundred KiB: a millisecond or two, then cached), brotli quality 4 and gzip level 6.
 *
 * Negotiation (RFC 9110 12.5.3): the highest positive q wins, ties going to br, then gzip, then
 * deflate, then identity. `identity` is acceptable unless refused (`identity;q=0`, or `*;q=0`
 * without an `identity` member); when the header does not mention it, it ranks below every listed
 * coding (`deflate;q=0.5` means "deflate, please"). When nothing acceptable is left the body is sent as identity
 * anyway (the RFC allows ignoring the header rather than answering 406); when identity is refused
 * and a coding is acceptable, the body is compressed even below 1 KiB. No header: identity.
 */
import { brotliCompressSync, constants, createBrotliCompress, createDeflate, createGzip, deflateSync, gzipSync } from "node:zlib"
import type { Transform } from "node:stream"

export type Coding = "br" | "gzip" | "deflate" | "identity"

export interface Negotiated {
  readonly coding: Coding
  /** The client refused identity: compress whatever the size. */
  readonly identityRefused: boolean
}

/**
 * What tells representations apart by their coding (the ETag's and the response cache's key): the
 * coding, marked when identity is refused, since a body below `MIN_COMPRESSED_BYTES` is then
 * compressed where it would otherwise be sent as it is: two bodies, two validators.
 */
export const representationCoding = (negotiated: Negotiated): string =>
  negotiated.identityRefused ? `${negotiated.coding};identity=0` : negotiated.coding

/** Bodies below this are sent as they are (unless identity is refused). */
export const MIN_COMPRESSED_BYTES = 1024

const IDENTITY: Negotiated = { coding: "identity", identityRefused: false }

const PREFERENCE: ReadonlyArray<Coding> = ["br", "gzip", "deflate", "identity"]

/** The rank of an identity the header does not mention: acceptable, after anything listed. */
const IMPLICIT_IDENTITY = 0.0001

const parseQ = (parameters: string): number => {
  for (const parameter of parameters.split(";")) {
    const eq = parameter.indexOf("=")
    if (eq < 0) continue
    if (parameter.slice(0, eq).trim().toLowerCase() !== "q") continue
    const value = Number(parameter.slice(eq + 1).trim())
    return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
  }
  return 1
}

/** The coding to apply for an `Accept-Encoding` value (uncached). */
export const negotiateUncached = (header: string | undefined): Negotiated => {
  if (header === undefined) return IDENTITY
  const q = new Map<string, number>()
  for (const member of header.split(",")) {
    const semi = member.indexOf(";")
    let name = (semi < 0 ? member : member.slice(0, semi)).trim().toLowerCase()
    if (name === "") continue
    if (name === "x-gzip") name = "gzip"
    const quality = semi < 0 ? 1 : parseQ(member.slice(semi + 1))
    // A repeated member keeps its highest quality.
    q.set(name, Math.max(quality, q.get(name) ?? 0))
  }
  const star = q.get("*")
  // identity, neither listed nor covered by `*`, is acceptable but ranks below any listed coding.
  const quality = (coding: Coding): number =>
    q.get(coding) ?? star ?? (coding === "identity" ? IMPLICIT_IDENTITY : 0)
  let best: Coding = "identity"
  let bestQ = -1
  for (const coding of PREFERENCE) {
    const value = quality(coding)
    if (value > 0 && value > bestQ) {
      best = coding
      bestQ = value
    }
  }
  return { coding: best, identityRefused: quality("identity") === 0 && best !== "identity" }
}

/** Negotiation memoised per distinct header value (clients send a handful of them). */
export const makeNegotiator = (capacity = 256) => {
  const memo = new Map<string, Negotiated>()
  return (header: string | undefined): Negotiated => {
    if (header === undefined) return IDENTITY
    let negotiated = memo.get(header)
    if (negotiated === undefined) {
      negotiated = negotiateUncached(header)
      if (memo.size >= capacity) memo.clear()
      memo.set(header, negotiated)
    }
    return negotiated
  }
}

/** Media types worth compressing: JSON (and `+json`) and text. */
export const isCompressible = (contentType: string | undefined): boolean =>
  contentType !== undefined &&
  (contentType.startsWith("application/json") || contentType.startsWith("application/problem+json") ||
    contentType.startsWith("text/"))

const BROTLI_TEXT = { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT }

/** A streamed body's compressor (the exports), with the settings of `compress`. */
export const compressor = (coding: Exclude<Coding, "identity">): Transform => {
  switch (coding) {
    case "br":
      return createBrotliCompress({ params: BROTLI_TEXT })
    case "gzip":
      return createGzip({ level: 6 })
    case "deflate":
      return createDeflate({ level: 6 })
  }
}

export const compress = (coding: Exclude<Coding, "identity">, body: Uint8Array): Uint8Array => {
  switch (coding) {
    case "br":
      return brotliCompressSync(body, {
        params: { ...BROTLI_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length }
      })
    case "gzip":
      return gzipSync(body, { level: 6 })
    case "deflate":
      return deflateSync(body, { level: 6 })
  }
}
