/**
 * The shared bucket in Redis: one atomic script per debit (`EVALSHA`, loaded once by
 * `effect/persistence/Redis`). The arithmetic is `TokenBuckets`' (refill `rate` units per second
 * up to `burst`, weighted cost), with one difference: a debit is always applied, even below zero.
 * A replica sends units it has already admitted (`sharedBuckets.ts`); refusing them would lose
 * what it overspent, while a debt makes the caller wait it off, so the total stays bounded.
 *
 * The key is a hash {l: level, t: ms}; it expires when the bucket would be full again (plus a
 * second), which is the same as no key: idle callers cost Redis nothing.
 *
 * Time is the replica's `Clock` (pinned in tests); a replica whose clock is behind the stored time
 * refills nothing (never a negative refill). Numbers travel as strings: Redis turns a Lua number
 * reply into an integer.
 */
import { Redis } from "effect/persistence"

export const DEBIT_LUA = `
local key = KEYS[1]
local units = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local level = burst
local at = now
local stored = redis.call("HMGET", key, "l", "t")
if stored[1] then
  level = tonumber(stored[1])
  at = tonumber(stored[2])
  if now > at then
    level = math.min(burst, level + (now - at) * rate / 1000)
    at = now
  end
end
level = level - units
redis.call("HSET", key, "l", string.format("%.17g", level), "t", string.format("%.17g", at))
redis.call("PEXPIRE", key, math.ceil((burst - level) * 1000 / rate) + 1000)
return { string.format("%.17g", level), string.format("%.17g", at) }
`

/** Debits `units` from the bucket at `key` at `now` (ms); answers the level after it and the time it stands at. */
export const debitScript = Redis.script(
  (key: string, units: number, rate: number, burst: number, now: number) => [key, units, rate, burst, now],
  { numberOfKeys: 1, lua: DEBIT_LUA }
).withReturnType<readonly [string, string]>()
