/** Headers of the contract (spec, Caching and CORS) and media types that many responses share. */

/** Every representation of the extract may be cached: the data never changes while the process lives. */
export const CACHE_POLICY = "public, max-age=3600, stale-while-revalidate=86400"
export const EXPOSED_HEADERS = "ETag, Retry-After, RateLimit, RateLimit-Policy"

/** On every response, errors included. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS
}

/** Methods every served path answers (an `OPTIONS` on one is a CORS preflight). */
export const ALLOW = "GET, HEAD, OPTIONS"

/** The content type routes give JSON bodies; the answer path adds the charset the spec requires. */
export const JSON_TYPE = "application/json"

/**
 * Headers of every HTML page: same-origin resources only (styles and scripts are files: no inline
 * code at all), no plugin, never framed (clickjacking), forms and `<base>` pinned to this origin.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-frame-options": "DENY"
}
