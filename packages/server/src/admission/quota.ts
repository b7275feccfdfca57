/**
 * The weighted quota per caller (design 3): a token bucket per caller address, refilled at
 * `RATE_LIMIT_RATE` units per second up to `RATE_LIMIT_BURST` units; a request costs what its URI
 * says it will send (`costOf`), 1 unit when its `If-None-Match` matches.
 *
 * Our own small bucket rather than `effect/persistence/RateLimiter`: its memory store never
 * forgets a key (memory grows with every address ever seen), it has no way to read a bucket without
 * consuming it (needed for the `RateLimit` header of a request refused before the quota), and its
 * per-call `Effect` and `Duration` work sits on the hot path. Here a call is a Map lookup and some
 * arithmetic. Time is given by the caller, read from Effect's `Clock` (so tests use `TestClock`).
 *
 * Memory stays bounded: a bucket that has refilled to full is the same as no bucket, so those are
 * swept (lazily, at most once per refill period, and whenever the map reaches its cap); if the map
 * is still at its cap (more than `MAX_CALLERS` callers active within one refill period), the oldest
 * entries are dropped: those callers get a full bucket again (the quota fails open, memory does not).
 */
import { type DatasetData, executionUnits } from "@equides/domain"
import { IpNetwork, NetAddress } from "effect/net"
import * as Result from "effect/Result"
import type { QueryScan } from "./requestSize.ts"
import { bytesEstimates } from "./routes.ts"

/** Callers tracked at most (about 100 bytes each). */
export const MAX_CALLERS = 100_000

export interface QuotaState {
  readonly allowed: boolean
  /** Whole units left after this request (`r` of `RateLimit`). */
  readonly remaining: number
  /** Seconds until the bucket is full again (`t` of `RateLimit`). */
  readonly resetSeconds: number
  /** Seconds to wait before this request could pass (`Retry-After`), ≥ 1; 0 when allowed. */
  readonly retryAfterSeconds: number
}

/**
 * What a bucket holding `tokens` (after the request, when allowed) tells the caller: the values of
 * `RateLimit` and `Retry-After`, whichever store holds the bucket.
 */
export const quotaState = (rate: number, burst: number, tokens: number, allowed: boolean, cost: number): QuotaState => ({
  allowed,
  remaining: Math.max(0, Math.floor(tokens)),
  resetSeconds: Math.max(0, Math.ceil((burst - tokens) / rate)),
  retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((cost - tokens) / rate))
})

interface Bucket {
  tokens: number
  at: number
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()
  private lastSweep = Number.NEGATIVE_INFINITY
  /** Milliseconds for an empty bucket to refill: the sweep period. */
  private readonly refillMs: number

  /** Units per second. */
  readonly rate: number
  readonly burst: number
  readonly maxCallers: number

  constructor(rate: number, burst: number, maxCallers: number = MAX_CALLERS) {
    this.rate = rate
    this.burst = burst
    this.maxCallers = maxCallers
    this.refillMs = Math.max(1000, (burst / rate) * 1000)
  }

  get size(): number {
    return this.buckets.size
  }

  private level(bucket: Bucket | undefined, now: number): number {
    if (bucket === undefined) return this.burst
    const elapsed = now - bucket.at
    return elapsed <= 0 ? bucket.tokens : Math.min(this.burst, bucket.tokens + (elapsed * this.rate) / 1000)
  }

  private state(tokens: number, allowed: boolean, cost: number): QuotaState {
    return quotaState(this.rate, this.burst, tokens, allowed, cost)
  }

  /** Always reachable (a shared store may not be: see `admission/quotaStore.ts`). */
  get up(): boolean {
    return true
  }

  /**
   * Takes `cost` units from `key`'s bucket at `now` (ms) when it holds them; a refusal takes
   * nothing. A cost above the burst is capped at the burst (else it could never pass).
   */
  take(key: string, wanted: number, now: number): QuotaState {
    const cost = Math.min(wanted, this.burst)
    if (now - this.lastSweep >= this.refillMs) this.sweep(now)
    const bucket = this.buckets.get(key)
    const tokens = this.level(bucket, now)
    if (tokens < cost) return this.state(tokens, false, cost)
    const left = tokens - cost
    if (bucket !== undefined) {
      bucket.tokens = left
      bucket.at = now
    } else {
      if (this.buckets.size >= this.maxCallers) this.makeRoom(now)
      this.buckets.set(key, { tokens: left, at: now })
    }
    return this.state(left, true, cost)
  }

  /** The bucket as it stands, nothing taken (for the `RateLimit` header of a request refused earlier). */
  peek(key: string, now: number): QuotaState {
    return this.state(this.level(this.buckets.get(key), now), true, 0)
  }

  /** Forgets the buckets that have refilled to full (equivalent to no entry). */
  sweep(now: number): void {
    this.lastSweep = now
    for (const [key, bucket] of this.buckets) {
      if (this.level(bucket, now) >= this.burst) this.buckets.delete(key)
    }
  }

  private makeRoom(now: number): void {
    this.sweep(now)
    if (this.buckets.size >= this.maxCallers) dropOldestTenth(this.buckets, this.maxCallers)
  }
}

/** A map of callers still full after a sweep: its oldest tenth (insertion order) is dropped, and they start again with a full bucket. */
export const dropOldestTenth = (callers: Map<string, unknown>, maxCallers: number): void => {
  let drop = Math.max(1, Math.floor(maxCallers / 10))
  for (const key of callers.keys()) {
    if (drop-- <= 0) break
    callers.delete(key)
  }
}

// -----------------------------------------------------------------------------
// The caller

/** `::ffff:192.0.2.1` → `192.0.2.1`; an IPv6 address → its /64 (one subscriber holds a whole /64). */
export const normalizeAddress = (address: string): string => {
  if (!address.includes(":")) return address
  if (address.startsWith("::ffff:") && address.includes(".")) return address.slice(7)
  const parsed = NetAddress.ipFromString(address)
  if (Result.isFailure(parsed)) return address
  const canonical = NetAddress.toCanonical(parsed.success)
  if (NetAddress.isIpv4Address(canonical)) return NetAddress.formatIp(canonical)
  const network = IpNetwork.fromAddress(canonical, 64)
  return Result.isSuccess(network) ? IpNetwork.format(network.success) : address
}

const parseIp = (input: string): NetAddress.IpAddress | undefined => {
  const trimmed = input.trim()
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed
  const parsed = NetAddress.ipFromString(bare)
  return Result.isSuccess(parsed) ? NetAddress.toCanonical(parsed.success) : undefined
}

/**
 * The caller's key: the socket's remote address; when that peer is a trusted proxy, the right-most
 * `X-Forwarded-For` hop that is not itself trusted (every hop trusted: the left-most). A hop that
 * is not an IP address stops the walk and the peer's own address is kept.
 */
export const makeCallerKey = (trusted: ReadonlyArray<IpNetwork.IpNetwork>) => {
  const isTrusted = (address: NetAddress.IpAddress): boolean => trusted.some((network) => IpNetwork.contains(network, address))
  return (remoteAddress: string | undefined, forwarded: string | undefined): string => {
    const socket = remoteAddress ?? "inconnue"
    if (trusted.length === 0) return normalizeAddress(socket)
    const peer = parseIp(socket)
    if (peer === undefined || !isTrusted(peer) || forwarded === undefined) return normalizeAddress(socket)
    const hops = forwarded.split(",")
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseIp(hops[i])
      if (hop === undefined) return normalizeAddress(socket)
      if (i > 0 && isTrusted(hop)) continue
      return normalizeAddress(NetAddress.formatIp(hop))
    }
    return normalizeAddress(socket)
  }
}

// -----------------------------------------------------------------------------
// The cost of a request, from its URI alone (design 3)

/** Bytes per unit. */
export const UNIT_BYTES = 16 * 1024

/** Each route's estimate, declared on its definition (`@equides/domain` `bytesEstimate`). */
const estimates = bytesEstimates()

/**
 * Estimated bytes of the answer to `route` (a route template) with these query values: its
 * definition's estimate (0 when it declares none, so the rule's minimum of 1 unit).
 */
export const estimatedBytes = (route: string | undefined, query: QueryScan, data: DatasetData): number => {
  const estimate = route === undefined ? undefined : estimates.get(route)
  return estimate === undefined ? 0 : estimate(query, data)
}

/** max(1, ceil(estimated bytes / 16 KiB)). */
export const costOf = (route: string | undefined, query: QueryScan, data: DatasetData): number =>
  Math.max(1, Math.ceil(estimatedBytes(route, query, data) / UNIT_BYTES))

/**
 * A request's units (issue 24, item 5): the larger of the bytes rule (`costOf`) and its route's
 * execution cost (`executionMs`, ms of CPU at full scale: 1 unit per 0.5 ms, `executionUnits`; 0
 * when the route declares none, see `routes.ts` `executionCosts`). A list without filters is a
 * window of a pre-sorted order whose cost does not grow: the bytes rule alone.
 */
export const unitsOf = (route: string | undefined, query: QueryScan, data: DatasetData, executionMs: number): number => {
  const bytes = costOf(route, query, data)
  if (executionMs <= 0 || (route === "/v1/equides" && query.count === query.paging)) return bytes
  return Math.max(bytes, executionUnits(executionMs))
}

// -----------------------------------------------------------------------------
// The headers (draft-ietf-httpapi-ratelimit-headers-10: Structured Fields lists)

export const POLICY_NAME = "default"

/** `"default";q=200;w=4`: `q` units per window of `w` seconds (burst / rate). */
export const rateLimitPolicy = (rate: number, burst: number): string =>
  `"${POLICY_NAME}";q=${burst};w=${Math.max(1, Math.ceil(burst / rate))}`

/** `"default";r=150;t=1`: `r` units left, `t` seconds until the bucket is full again. */
export const rateLimitValue = (state: QuotaState): string => `"${POLICY_NAME}";r=${state.remaining};t=${state.resetSeconds}`
