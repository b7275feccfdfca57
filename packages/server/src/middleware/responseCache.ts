/**
 * Responses kept by ETag (design 2.0: "cache compressed bodies per ETag"). An ETag names exactly
 * one representation (dataset, URI, coding, media type), and the data never changes while the
 * process lives, so a kept response is valid until the process ends: a request whose ETag is here
 * is answered from memory, without running the handler (and without compressing again).
 *
 * Only successes are kept (an error is cheap to recompute, and random URIs must not churn the
 * cache). Bounded by bytes (`RESPONSE_CACHE_MB`, 0 turns it off), least recently used evicted first. The
 * bodies are the very `Uint8Array`s the handlers produced (or the compressor returned): nothing is
 * copied. Per-request headers (`RateLimit`) are not kept: they are added on each answer.
 */
interface Entry<A> {
  readonly value: A
  readonly bytes: number
}

/** Fixed cost counted per entry on top of its body (key, headers, objects). */
const ENTRY_OVERHEAD = 512

export class ResponseCache<A> {
  private readonly entries = new Map<string, Entry<A>>()
  private used = 0
  hits = 0
  misses = 0

  readonly maxBytes: number

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  get bytes(): number {
    return this.used
  }

  get size(): number {
    return this.entries.size
  }

  get(etag: string): A | undefined {
    const entry = this.entries.get(etag)
    if (entry === undefined) {
      this.misses++
      return undefined
    }
    this.hits++
    // Most recently used last: re-insert.
    this.entries.delete(etag)
    this.entries.set(etag, entry)
    return entry.value
  }

  /** Keeps `value` (a response whose body is `bodyBytes` long) unless it is larger than a sixteenth of the cache. */
  set(etag: string, value: A, bodyBytes: number): void {
    const bytes = bodyBytes + ENTRY_OVERHEAD
    if (!this.enabled || bytes > this.maxBytes / 16 || this.entries.has(etag)) return
    this.entries.set(etag, { value, bytes })
    this.used += bytes
    if (this.used <= this.maxBytes) return
    for (const [key, entry] of this.entries) {
      if (this.used <= this.maxBytes) break
      this.entries.delete(key)
      this.used -= entry.bytes
    }
  }
}
