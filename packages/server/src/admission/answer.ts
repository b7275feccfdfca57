/**
 * The one answer path: every response the service writes is an `Answer` (status, headers, body)
 * shaped here, whoever writes it. The front door (`node/frontDoor.ts`) writes what admission
 * answers without executing anything (304, kept response, refusals) straight to Node; the
 * pipeline (`pipeline/Pipeline.ts`) shapes what the router executed with the same function and
 * writes admission's answers the same way when no front door ran. So the contract's headers
 * (spec, Caching and CORS; design 3) are written in one place, and a test compares both paths.
 */
import type { ProblemeApi } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpServerRespondable, HttpServerResponse } from "effect/http"
import { compress, isCompressible, MIN_COMPRESSED_BYTES, type Negotiated } from "./coding.ts"
import type { Own } from "../own.ts"
import { cachePolicyOf } from "../pageRoutes.ts"
import { CACHE_POLICY, COMMON_HEADERS, JSON_TYPE, PAGE_SECURITY_HEADERS } from "../responseHeaders.ts"
import { type QuotaState, rateLimitValue } from "./quota.ts"

export interface Answer {
  readonly status: number
  /** Lower-case names, in the order they are written. */
  readonly headers: Readonly<Record<string, string>>
  /** `undefined`: no body at all (204, 304). */
  readonly body: Uint8Array | undefined
}

/** What shaping needs to know of the request an answer is for. */
export interface Addressee {
  /** The route template, or undefined when no route serves the path. */
  readonly route: string | undefined
  readonly vary: string
  readonly negotiated: Negotiated
  readonly etag: string | undefined
}

const JSON_UTF8 = "application/json; charset=utf-8"

/** 429 and 5xx describe a moment, not the resource: caches must not keep them. */
const isNoStore = (status: number): boolean => status === 429 || status >= 500

const compresses = (status: number, contentType: string | undefined, body: Uint8Array, negotiated: Negotiated): boolean =>
  negotiated.coding !== "identity" && status >= 200 && status !== 204 && status !== 304 &&
  (body.length >= MIN_COMPRESSED_BYTES || (negotiated.identityRefused && body.length > 0)) && isCompressible(contentType)

/**
 * A response's own status, headers (lower-case: content type and length, `Allow`, `Retry-After`…)
 * and body, with what the contract adds to every response: the common headers, `Vary`,
 * `Cache-Control` and `ETag` (or `no-store`), the JSON charset, the page security headers on
 * HTML, `RateLimit-Policy`, and the body compressed by the negotiated coding when it should be.
 */
export const shapeAnswer = (
  to: Addressee,
  policy: string | undefined,
  status: number,
  own: Readonly<Record<string, string>>,
  body: Uint8Array | undefined
): Answer => {
  // The common headers' object cloned, then the response's own: one spread of an object whose
  // shape never changes is a copy of its map, where spreading a second object into the same
  // literal defined each property through V8's runtime (about 1 % of a 304's CPU, `perf`).
  const headers: Record<string, string> = { ...COMMON_HEADERS }
  for (const name in own) if (!Object.hasOwn(COMMON_HEADERS, name)) headers[name] = own[name]!
  headers["vary"] = to.vary
  if (isNoStore(status)) {
    headers["cache-control"] = "no-store"
  } else {
    headers["cache-control"] = cachePolicyOf(to.route) ?? CACHE_POLICY
    if (to.etag !== undefined) headers["etag"] = to.etag
  }
  const contentType = own["content-type"]
  if (contentType === JSON_TYPE) headers["content-type"] = JSON_UTF8
  // A page that states its own policy (the interactive reference runs scripts) keeps it.
  else if (contentType?.startsWith("text/html") === true && own["content-security-policy"] === undefined) {
    Object.assign(headers, PAGE_SECURITY_HEADERS)
  }
  if (policy !== undefined) headers["ratelimit-policy"] = policy
  if (body === undefined || !compresses(status, contentType, body, to.negotiated)) return { status, headers, body }
  const coding = to.negotiated.coding as Exclude<Negotiated["coding"], "identity">
  const compressed = compress(coding, body)
  headers["content-length"] = String(compressed.length)
  headers["content-encoding"] = coding
  return { status, headers, body: compressed }
}

/** The answer as sent to one caller: with its `RateLimit` when a quota applies. */
export const withRateLimit = (answer: Answer, quota: QuotaState | undefined): Answer =>
  quota === undefined ? answer : { ...answer, headers: { ...answer.headers, ratelimit: rateLimitValue(quota) } }

/**
 * The own part of a response built by Effect (a route's, a problem's): its body is bytes or
 * nothing; a streamed body (no route of this service streams) is `undefined`, handled apart.
 */
export const ownOf = (response: HttpServerResponse.HttpServerResponse): Own | undefined => {
  const body = response.body
  if (body._tag === "Uint8Array") return { status: response.status, headers: response.headers, body: body.body }
  if (body._tag === "Empty") return { status: response.status, headers: response.headers, body: undefined }
  return undefined
}

/** A problem's own part, rendered once (problems encode without services). */
export const renderProblem = (problem: ProblemeApi, headers: Readonly<Record<string, string>> = {}): Own =>
  ownOf(Effect.runSync(Effect.map(HttpServerRespondable.toResponse(problem), HttpServerResponse.setHeaders(headers))))!
