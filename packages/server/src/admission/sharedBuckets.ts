/**
 * Buckets shared by replicas (issue 12), decided locally. The buckets themselves live in Redis
 * (`quotaScript.ts`: the same token bucket as `TokenBuckets`, whose level may go below zero);
 * each replica keeps, per caller, a mirror of the shared level as Redis last reported it, and
 * decides every request synchronously from that mirror:
 *
 * - estimate = min(burst, level + rate × (now − at)) − units admitted here not yet confirmed;
 * - a request passes when the estimate holds its cost AND the units admitted here and not yet
 *   confirmed by Redis stay within the local allowance `localUnits` (a request alone may exceed
 *   it: a costly request is never refused for its size);
 * - an admitted request's units are sent to Redis asynchronously (one call in flight per caller;
 *   what is admitted meanwhile goes in the next one), and Redis's answer refreshes the mirror.
 *
 * A caller this replica has not seen starts from a full bucket, as with the memory store. What
 * other replicas spend reaches a mirror with the next answer, so a replica can overshoot by what
 * it admits before that answer: at most `localUnits` (or one request's cost), whose debit still
 * reaches Redis (the level goes below zero and the caller waits the debt off). Over N replicas, a
 * caller gets at most burst + rate × t + N × U units in t seconds (U: `localUnits`, or one
 * request's cost): docs/deployment.md, tested in `sharedBuckets.test.ts` and `redisQuota.test.ts`.
 *
 * When the store is down (`setUp(false)`), every request is admitted (fail open) and the mirrors
 * are dropped: they start again from Redis's answers once it is back.
 */
import { dropOldestTenth, MAX_CALLERS, type QuotaState, quotaState } from "./quota.ts"
import type { QuotaStore } from "./quotaStore.ts"

interface Mirror {
  /** The shared level Redis reported, in units (may be negative: a debt), at `at` (ms). */
  level: number
  at: number
  /** Units admitted here, not yet sent. */
  unsent: number
  /** Units of the call in flight (0 when none). */
  sending: number
}

/** Sends `units` admitted for `key` to the shared store; its answer comes back through `settled` or `failed`. */
export type SendDebit = (key: string, units: number) => void

export class SharedBuckets implements QuotaStore {
  private readonly mirrors = new Map<string, Mirror>()
  private lastSweep = Number.NEGATIVE_INFINITY
  private readonly refillMs: number
  private reachable = false

  readonly rate: number
  readonly burst: number
  readonly localUnits: number
  private readonly send: SendDebit
  private readonly maxCallers: number

  constructor(rate: number, burst: number, localUnits: number, send: SendDebit, maxCallers: number = MAX_CALLERS) {
    this.rate = rate
    this.burst = burst
    this.localUnits = localUnits
    this.send = send
    this.maxCallers = maxCallers
    this.refillMs = Math.max(1000, (burst / rate) * 1000)
  }

  get up(): boolean {
    return this.reachable
  }

  get size(): number {
    return this.mirrors.size
  }

  /** Reachable or not; going down forgets the mirrors (and the units in flight: fail open). */
  setUp(up: boolean): void {
    if (!up) this.mirrors.clear()
    this.reachable = up
  }

  private estimate(mirror: Mirror | undefined, now: number): number {
    if (mirror === undefined) return this.burst
    const elapsed = now - mirror.at
    const level = elapsed <= 0 ? mirror.level : Math.min(this.burst, mirror.level + (elapsed * this.rate) / 1000)
    return level - mirror.unsent - mirror.sending
  }

  take(key: string, wanted: number, now: number): QuotaState {
    const cost = Math.min(wanted, this.burst)
    if (!this.reachable) return quotaState(this.rate, this.burst, this.estimate(undefined, now), true, cost)
    if (now - this.lastSweep >= this.refillMs) this.sweep(now)
    let mirror = this.mirrors.get(key)
    const tokens = this.estimate(mirror, now)
    const unconfirmed = mirror === undefined ? 0 : mirror.unsent + mirror.sending
    // Over the allowance the estimate may be stale by more than it is allowed to be: refused, to
    // be asked again in a second (the estimate holds the cost, so Retry-After says 1).
    if (tokens < cost || (unconfirmed > 0 && unconfirmed + cost > this.localUnits)) return quotaState(this.rate, this.burst, tokens, false, cost)
    if (mirror === undefined) {
      if (this.mirrors.size >= this.maxCallers) this.makeRoom(now)
      mirror = { level: this.burst, at: now, unsent: 0, sending: 0 }
      this.mirrors.set(key, mirror)
    }
    mirror.unsent += cost
    if (mirror.sending === 0) this.flush(key, mirror)
    return quotaState(this.rate, this.burst, tokens - cost, true, cost)
  }

  peek(key: string, now: number): QuotaState {
    return quotaState(this.rate, this.burst, this.reachable ? this.estimate(this.mirrors.get(key), now) : this.burst, true, 0)
  }

  private flush(key: string, mirror: Mirror): void {
    mirror.sending = mirror.unsent
    mirror.unsent = 0
    this.send(key, mirror.sending)
  }

  /** Redis took the units in flight for `key`: the shared level is `level` at `at` (ms). */
  settled(key: string, level: number, at: number): void {
    const mirror = this.mirrors.get(key)
    if (mirror === undefined) return
    mirror.level = level
    mirror.at = at
    mirror.sending = 0
    if (mirror.unsent > 0) this.flush(key, mirror)
  }

  /** The units in flight for `key` did not reach Redis (the caller of `send` marks the store down). */
  failed(key: string): void {
    const mirror = this.mirrors.get(key)
    if (mirror !== undefined) mirror.sending = 0
  }

  /** Forgets the mirrors of full buckets with nothing in flight (the same as no mirror). */
  sweep(now: number): void {
    this.lastSweep = now
    for (const [key, mirror] of this.mirrors) {
      if (mirror.sending === 0 && mirror.unsent === 0 && this.estimate(mirror, now) >= this.burst) this.mirrors.delete(key)
    }
  }

  private makeRoom(now: number): void {
    this.sweep(now)
    // Their debits in flight still reach Redis; their answers find no mirror.
    if (this.mirrors.size >= this.maxCallers) dropOldestTenth(this.mirrors, this.maxCallers)
  }
}
