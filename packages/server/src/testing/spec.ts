/**
 * Values the spec (`shared/spec/equine-registry-api.md`) writes out literally, copied here by hand
 * so that tests check the server against the spec rather than against its own constants: a wrong
 * constant in the code then fails a test instead of passing it.
 */

/** Caching 1: every response's `Cache-Control`. */
export const SPEC_CACHE_CONTROL = "public, max-age=3600, stale-while-revalidate=86400"

/** Overview: the content type of every route. */
export const SPEC_JSON = "application/json; charset=utf-8"

/** Design (headers table, "other headers"): CORS exposes ETag, Retry-After and the RateLimit headers. */
export const DESIGN_EXPOSED_HEADERS = "ETag, Retry-After, RateLimit, RateLimit-Policy"
