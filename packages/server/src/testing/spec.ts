/**
 * Values the spec (`shared/spec/equine-registry-api.md`) writes out literally, copied here by hand
 * so that tests check the server against the spec rather than against its own constants: a wrong
 * constant in the code then fails a test instead of passing it.
 */

/** Caching 1: every response's `Cache-Control`. */
export const SPEC_CACHE_CONTROL = "public, max-age=3600, stale-while-revalidate=86400"

/** Overview: the content type of every route; Errors, Body: the content type of errors. */
export const SPEC_JSON = "application/json; charset=utf-8"
export const SPEC_PROBLEM = "application/problem+json"

/** Errors, Body: the `type` and `title` of an unknown or invalid parameter. */
export const SPEC_INVALID_PARAMETER_TYPE_SUFFIX = "#erreur-parametre-invalide"
export const SPEC_INVALID_PARAMETER_TITLE = "Paramètre invalide"

/** Limits. */
export const SPEC_LIMITS = {
  rate: 50,
  burst: 200,
  concurrency: 8,
  timeoutSeconds: 5,
  pageSize: 100,
  listDefault: 20,
  descendanceDefault: 50,
  offsetDepth: 10000,
  pedigreeDepth: 8,
  pedigreeDefault: 4,
  parameters: 64,
  queryBytes: 4096,
  referenceList: 2000
} as const

/** Design (headers table, "other headers"): CORS exposes ETag, Retry-After and the RateLimit headers. */
export const DESIGN_EXPOSED_HEADERS = "ETag, Retry-After, RateLimit, RateLimit-Policy"
