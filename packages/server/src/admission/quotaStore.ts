/**
 * Where the quota's buckets live (design 3, 4.1). Admission decides synchronously, in the Node
 * `request` event, so a store answers from memory: `TokenBuckets` (`quota.ts`) holds
 * the buckets in this process; `SharedBuckets` (`sharedBuckets.ts`) mirrors buckets kept in Redis
 * and reconciles with it asynchronously (`redisQuota.ts`).
 */
import * as Context from "effect/Context"
import type { QuotaState } from "./quota.ts"

export interface QuotaStore {
  /** Takes `cost` units from `key`'s bucket at `now` (ms) when it holds them; a refusal takes nothing. */
  take(key: string, cost: number, now: number): QuotaState
  /** The bucket as it stands, nothing taken. */
  peek(key: string, now: number): QuotaState
  /** Callers tracked in this process. */
  readonly size: number
  /** False while a shared store cannot be reached: every request is then admitted (fail open). */
  readonly up: boolean
}

/**
 * The store admission uses when the quota is on. Optional: without it, admission keeps the buckets
 * in memory (`TokenBuckets`), as tests and a single process do.
 */
export class Quota extends Context.Service<Quota, QuotaStore>()("@equides/server/Quota") {}
