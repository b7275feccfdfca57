/**
 * The shared bucket in Redis: one atomic script per batch of debits (`EVALSHA`, loaded once by
 * `effect/persistence/Redis`), each key on its own. The arithmetic is `TokenBuckets`' (refill
 * `rate` units per second up to `burst`, weighted cost), with one difference: a debit is always
 * applied, even below zero.
 * A replica sends units it has already admitted (`sharedBuckets.ts`); refusing them would lose
 * what it overspent, while a debt makes the caller wait it off, so the total stays bounded.
 *
 * The key is a hash {l: level, t: ms}; it expires when the bucket would be full again (plus a
 * second), which is the same as no key: idle callers cost Redis nothing.
 *
 * Time is the replica's `Clock` (pinned in tests); a replica whose clock is behind the stored time
 * refills nothing (never a negative refill). Numbers travel as strings: Redis turns a Lua number
 * reply into an integer. Several keys in one script need one Redis (a primary, with replicas or
 * Sentinel if wanted), not a Cluster, where the keys of one script must share a slot.
 */
import { Redis } from "effect/persistence"

export const DEBIT_LUA = `
local n = #KEYS
local rate = tonumber(ARGV[n + 1])
local burst = tonumber(ARGV[n + 2])
local now = tonumber(ARGV[n + 3])
local replies = {}
for i = 1, n do
  local key = KEYS[i]
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
  level = level - tonumber(ARGV[i])
  redis.call("HSET", key, "l", string.format("%.17g", level), "t", string.format("%.17g", at))
  redis.call("PEXPIRE", key, math.ceil((burst - level) * 1000 / rate) + 1000)
  replies[2 * i - 1] = string.format("%.17g", level)
  replies[2 * i] = string.format("%.17g", at)
end
return replies
`

/**
 * Debits `units[i]` from the bucket at `keys[i]`, all at `now` (ms), in one call: what a replica
 * admitted for many callers in one turn of its event loop. Answers, per key, the level after the
 * debit and the time it stands at (flat: level, time, level, time…).
 */
export const debitScript = Redis.script(
  (keys: ReadonlyArray<string>, units: ReadonlyArray<number>, rate: number, burst: number, now: number) => [...keys, ...units, rate, burst, now],
  { numberOfKeys: (keys) => keys.length, lua: DEBIT_LUA }
).withReturnType<ReadonlyArray<string>>()
