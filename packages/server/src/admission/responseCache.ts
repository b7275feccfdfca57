/**
 * Responses kept by ETag (design 2.0: "cache compressed bodies per ETag"). An ETag names exactly
 * one representation (dataset, build, URI, coding, media type), and the data never changes while
 * the process lives, so a kept response is valid until the process ends: a request whose ETag is
 * here is answered from memory, without running the handler (and without compressing again). The
 * ETag is a 64-bit non-cryptographic hash whose seed is public (`conditional.ts`), so two URIs
 * could share one: an entry also holds the URI, coding and variant it was kept for, and a hit
 * for another is a miss (one string comparison, on a hit only).
 *
 * Only successes are kept (an error is cheap to recompute, and random URIs must not churn the
 * cache), and only from their second request on (`doorkeeper.ts`: traffic that never repeats
 * passes through without filling the cache). Bounded by bytes (`RESPONSE_CACHE_MB`, 0 turns it
 * off), least recently used evicted first.
 *
 * The budget counts what an entry keeps alive, not the length of its body: a body that is a view
 * of a larger buffer (the compressor returns views of its 16 KiB+ output chunks, `Buffer`s share an
 * 8 KiB pool) pins the whole buffer, so such a body is first copied to a buffer of its own exact
 * size (`exactBody`), and an entry counts its body's backing buffer plus a fixed overhead.
 *
 * Insertion, lookup and eviction cost O(1) whatever the cache holds: the recency order is a doubly
 * linked list through the entries (a `Map` walked from its head, as before, skips the deleted
 * slots the map keeps until it is rehashed, so a full cache under distinct URIs paid per insertion
 * for every eviction since the last rehash).
 */
import { Doorkeeper } from "./doorkeeper.ts"

interface Entry<A> {
  readonly key: string
  /** What the response represents: the request target, the content-coding, the variant. */
  readonly uri: string
  readonly coding: string
  readonly variant: string
  readonly value: A
  readonly bytes: number
  /** Toward the least recently used. */
  older: Entry<A> | undefined
  /** Toward the most recently used. */
  newer: Entry<A> | undefined
}

/**
 * Fixed cost counted per entry on top of its body's buffer: the key, the entry and the kept
 * response with its headers object, as measured on the V8 heap (about 2 KB per kept response).
 */
export const ENTRY_OVERHEAD = 2048

/**
 * The doorkeeper remembers a key per this many bytes of budget: about four times as many recent
 * keys as the cache holds entries (64 MiB: 131 072 keys in 512 KiB), so that a URI asked for again
 * within the last hundred thousand or so distinct requests is kept.
 */
const BUDGET_BYTES_PER_REMEMBERED_KEY = 512

/** `body` itself when it owns its whole buffer, else a copy that does (what the cache may keep). */
export const exactBody = (body: Uint8Array): Uint8Array =>
  body.byteOffset === 0 && body.buffer.byteLength === body.byteLength ? body : new Uint8Array(body)

export class ResponseCache<A> {
  private readonly entries = new Map<string, Entry<A>>()
  /** The least and the most recently used entries. */
  private oldest: Entry<A> | undefined = undefined
  private newest: Entry<A> | undefined = undefined
  private used = 0
  hits = 0

  readonly maxBytes: number
  private readonly doorkeeper: Doorkeeper

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
    this.doorkeeper = new Doorkeeper(maxBytes / BUDGET_BYTES_PER_REMEMBERED_KEY)
  }

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  /** Bytes the kept entries pin (bodies' buffers and the fixed overhead of each). */
  get bytes(): number {
    return this.used
  }

  get size(): number {
    return this.entries.size
  }

  /** The response kept for `etag`, when it was kept for this URI, coding and variant. */
  get(etag: string, uri: string, coding: string, variant: string): A | undefined {
    const entry = this.entries.get(etag)
    if (entry === undefined || entry.uri !== uri || entry.coding !== coding || entry.variant !== variant) return undefined
    this.hits++
    if (entry !== this.newest) {
      this.unlink(entry)
      this.append(entry)
    }
    return entry.value
  }

  /**
   * Whether a response for `etag` is to be kept now: the cache is on, does not hold one, and was
   * offered one before (which this call remembers).
   */
  wants(etag: string): boolean {
    return this.enabled && !this.entries.has(etag) && this.doorkeeper.seenBefore(etag)
  }

  /**
   * Keeps `value`, the response to `uri` in `coding` and `variant` whose body is `body` (which must
   * own its buffer: see `exactBody`), unless it would take more than a sixteenth of the cache or
   * the cache holds a response for `etag` already (the same one, or another URI's that collides).
   */
  set(etag: string, uri: string, coding: string, variant: string, value: A, body: Uint8Array): void {
    const bytes = body.buffer.byteLength + ENTRY_OVERHEAD
    if (!this.enabled || bytes > this.maxBytes / 16 || this.entries.has(etag)) return
    const entry: Entry<A> = { key: etag, uri, coding, variant, value, bytes, older: undefined, newer: undefined }
    this.entries.set(etag, entry)
    this.append(entry)
    this.used += bytes
    while (this.used > this.maxBytes && this.oldest !== undefined) {
      const evicted = this.oldest
      this.unlink(evicted)
      this.entries.delete(evicted.key)
      this.used -= evicted.bytes
    }
  }

  private append(entry: Entry<A>): void {
    entry.older = this.newest
    entry.newer = undefined
    if (this.newest === undefined) this.oldest = entry
    else this.newest.newer = entry
    this.newest = entry
  }

  private unlink(entry: Entry<A>): void {
    if (entry.older === undefined) this.oldest = entry.newer
    else entry.older.newer = entry.newer
    if (entry.newer === undefined) this.newest = entry.older
    else entry.newer.older = entry.older
    entry.older = undefined
    entry.newer = undefined
  }
}
