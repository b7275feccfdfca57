/**
 * The quota paces an export (design 7): 1 unit per 16 KiB of body as it is produced, taken from
 * the caller's bucket in whichever store holds it (`QuotaStore`: this process's, or the shared
 * Redis buckets). When the bucket is short the stream waits for the refill instead of failing, so
 * a caller never gets more than burst + rate × t units in t seconds, and an export is never cut.
 */
import type { QuotaStore } from "../admission/quotaStore.ts"
import { UNIT_BYTES } from "../admission/quota.ts"

export interface PacingClock {
  /** Milliseconds. */
  readonly now: () => number
  /** Resolves after `ms` milliseconds, or at once when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
}

export const realClock: PacingClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve()
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        signal.removeEventListener("abort", done)
        resolve()
      }
      signal.addEventListener("abort", done, { once: true })
    })
}

export class Pacer {
  private produced = 0
  private charged = 0

  private readonly store: QuotaStore | undefined
  private readonly caller: string
  private readonly rate: number
  private readonly clock: PacingClock

  /** `store` undefined: no quota, nothing paced. */
  constructor(store: QuotaStore | undefined, caller: string, rate: number, clock: PacingClock) {
    this.store = store
    this.caller = caller
    this.rate = rate
    this.clock = clock
  }

  /** Units taken so far. */
  get units(): number {
    return this.charged
  }

  /**
   * Charges `bytes` more of body: the whole units they complete are taken, waiting for the
   * refill as long as the bucket is short (or until `signal` aborts: the client left).
   */
  async charge(bytes: number, signal: AbortSignal): Promise<void> {
    this.produced += bytes
    const store = this.store
    if (store === undefined) return
    let owed = Math.floor(this.produced / UNIT_BYTES) - this.charged
    while (owed > 0 && !signal.aborted) {
      // One unit at a time: a chunk's units are never more than the bucket can hold at once.
      const state = store.take(this.caller, 1, this.clock.now())
      if (state.allowed) {
        this.charged++
        owed--
        continue
      }
      await this.clock.sleep(Math.max(1, Math.ceil(1000 / this.rate)), signal)
    }
  }
}
