/**
 * The quota shared through a real `redis-server` (issue 12), started by the tests on a free port
 * (skipped with a message where it is not installed, required in CI): the script's arithmetic at
 * pinned times, two servers sharing one quota within the stated overshoot, Redis gone and back
 * (fail open, the metric, `/readyz`), Redis too slow, and 100 000 callers whose keys expire by
 * themselves.
 */
import { NodeRedis } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { fromRecords, type SourceRecord } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { TestClock } from "effect/testing"
import { HttpServer } from "effect/http"
import { Redis } from "effect/persistence"
import { setTimeout as sleep } from "node:timers/promises"
import { Admission } from "./Gatekeeper.ts"
import type { ServerSettings } from "../config.ts"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { rawCall, testServer } from "../testing/server.ts"
import { requiredProgram } from "../testing/programs.ts"
import { redisServer } from "../testing/redisServer.ts"
import { debitScript } from "./quotaScript.ts"
import { Quota } from "./quotaStore.ts"
import { localUnitsOf, makeRedisQuota } from "./redisQuota.ts"

const program = requiredProgram("redis-server", "redis-server")

/** A client of the test's Redis, to look inside it. */
const redisClient = (url: string) =>
  Effect.map(Layer.build(NodeRedis.layer({ url })), (context) => {
    const redis = Context.get(context, Redis.Redis)
    return { eval: redis.eval, send: <A>(command: string, ...args: ReadonlyArray<string>) => Effect.orDie(redis.send<A>(command, ...args)) }
  })

/** Real time (the servers run on the real clock here), polled until `check` holds, for at most `ms`. */
const eventually = <A>(what: string, ms: number, check: Effect.Effect<A | undefined>) =>
  Effect.gen(function*() {
    const until = Date.now() + ms
    while (Date.now() < until) {
      const value = yield* check
      if (value !== undefined) return value
      yield* Effect.promise(() => sleep(25))
    }
    return yield* Effect.die(new Error(`not within ${ms} ms: ${what}`))
  })

/** A test server over FAMILY whose quota lives in the Redis at `url` (under `prefix`). */
const sharedServer = (url: string, prefix: string, quota: Pick<ServerSettings, "rateLimitRate" | "rateLimitBurst">, records: ReadonlyArray<SourceRecord> = FAMILY) =>
  Effect.gen(function*() {
    const settings = { ...quota, rateLimitStore: url as ServerSettings["rateLimitStore"], rateLimitPrefix: prefix }
    const store = Layer.effect(
      Quota,
      makeRedisQuota({
        url,
        prefix,
        rate: quota.rateLimitRate,
        burst: quota.rateLimitBurst,
        localUnits: localUnitsOf({ rateLimitBurst: quota.rateLimitBurst, rateLimitLocalUnits: undefined }),
        // Generous: a loaded test machine must not flip the store down by accident.
        timeout: Duration.seconds(2)
      })
    )
    const context = yield* Layer.build(testServer(fromRecords(records), { settings }).pipe(Layer.provide(store)))
    const address = Context.get(context, HttpServer.HttpServer).address
    const gatekeeper = Context.get(context, Admission)
    yield* eventually("the store is up", 10_000, Effect.sync(() => (gatekeeper.quota?.up === true ? true : undefined)))
    return {
      baseUrl: address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${address.port}`,
      gatekeeper,
      registry: Context.get(context, Telemetry)
    }
  })

describe.skipIf(program === undefined)("the quota shared through Redis", () => {
  const redis = redisServer(program ?? "redis-server")

  it.live("the script: refill at the rate up to the burst, weighted debits, debts, no refill backwards, keys expiring when full", () =>
    Effect.gen(function*() {
      const server = yield* redis
      const client = yield* redisClient(server.url)
      const debit = client.eval(debitScript)
      const at = (units: number, now: number) =>
        Effect.map(debit(["q:a"], [units], 50, 200, now), (replies) => replies.map(Number))
      assert.deepStrictEqual(yield* at(1, 1000), [199, 1000]) // a new caller starts full
      assert.deepStrictEqual(yield* at(5, 1000), [194, 1000]) // weighted
      assert.deepStrictEqual(yield* at(0, 1100), [199, 1100]) // 100 ms at 50/s: 5 units
      assert.deepStrictEqual(yield* at(3, 1110), [196.5, 1110]) // half a unit in 10 ms
      assert.deepStrictEqual(yield* at(0, 1_000_000), [200, 1_000_000]) // never beyond the burst
      assert.deepStrictEqual(yield* at(300, 1_000_000), [-100, 1_000_000]) // always applied: a debt
      assert.deepStrictEqual(yield* at(0, 999_000), [-100, 1_000_000]) // a clock behind refills nothing
      // The key lives until the bucket would be full again, plus a second: 300 units at 50/s, 7 s.
      const ttl = Number(yield* client.send("PTTL", "q:a"))
      assert.isAbove(ttl, 6000)
      assert.isAtMost(ttl, 7000)
      // Several callers in one call, each on its own; fractions survive the round trip.
      const both = yield* debit(["q:b", "q:a", "q:c"], [1, 0, 12], 3, 10, 1_000_000)
      assert.deepStrictEqual(both.map(Number), [9, 1_000_000, -100, 1_000_000, -2, 1_000_000])
      assert.closeTo(Number((yield* debit(["q:b"], [0], 3, 10, 1_000_100))[0]), 9.3, 1e-9)
    }))

  it.effect("two servers sharing one Redis: a client alternating between them gets burst + rate × t within N × U, not twice", () =>
    Effect.gen(function*() {
      // Time stands still on the TestClock (both replicas and the script read it) and moves only by
      // `adjust`: the allowance is exact, however slow the machine. 1 unit a second keeps the key
      // alive in Redis (it expires in real time) through the whole test.
      const server = yield* redis
      const client = yield* redisClient(server.url)
      const quota = { rateLimitRate: 1, rateLimitBurst: 40 }
      const replicas = [yield* sharedServer(server.url, "q2:", quota), yield* sharedServer(server.url, "q2:", quota)]
      // U: the local allowance (10 here); every request here costs 1 unit.
      const overshoot = replicas.length * localUnitsOf({ rateLimitBurst: 40, rateLimitLocalUnits: undefined })
      const level = Effect.gen(function*() {
        const keys = yield* client.send<Array<string>>("KEYS", "q2:*")
        return keys.length === 1 ? Number(yield* client.send<string>("HGET", keys[0]!, "l")) : undefined
      })
      let admitted = 0
      let turn = 0
      /**
       * Requests one after the other, alternating replicas, until Redis has less than a unit left:
       * checked whenever both replicas refuse, once Redis holds every unit they admitted.
       */
      const exhaust = (allowance: number) =>
        Effect.gen(function*() {
          while (true) {
            let refused = 0
            for (let i = 0; i < replicas.length; i++) {
              const status = (yield* rawCall(replicas[turn++ % replicas.length]!.baseUrl, "/v1/meta")).status
              if (status === 200) admitted++
              else refused++
            }
            if (refused < replicas.length) continue
            const settled = yield* eventually(
              "Redis holds every admitted unit",
              10_000,
              Effect.map(level, (l) => (l !== undefined && Math.abs(l - (allowance - admitted)) < 1e-9 ? l : undefined))
            )
            if (settled < 1) return
          }
        })

      yield* exhaust(quota.rateLimitBurst)
      // Shared, not starved (the burst is used), and not twice the burst (each replica alone gives 40).
      assert.isAtLeast(admitted, quota.rateLimitBurst)
      assert.isAtMost(admitted, quota.rateLimitBurst + overshoot)

      yield* TestClock.adjust("10 seconds")
      const allowance = quota.rateLimitBurst + quota.rateLimitRate * 10
      yield* exhaust(allowance)
      assert.isAtLeast(admitted, allowance)
      assert.isAtMost(admitted, allowance + overshoot)
    }), { timeout: 60_000 })

  it.live("an export is paced through the shared buckets: it waits for their refill, and Redis holds what it took", () =>
    Effect.gen(function*() {
      const server = yield* redis
      const client = yield* redisClient(server.url)
      const records = Array.from({ length: 2500 }, (_, i) => ({ ...FAMILY[i % FAMILY.length], id: idN(20_000 + i), nom: `EXPORT ${i}` }))
      const quota = { rateLimitRate: 50, rateLimitBurst: 20 }
      const { baseUrl } = yield* sharedServer(server.url, "q4:", quota, records)
      const started = Date.now()
      const reply = yield* rawCall(baseUrl, "/v1/export/equides")
      const seconds = (Date.now() - started) / 1000
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.body.toString().split("\n").length - 1, records.length)
      const units = Math.floor(reply.body.length / 16_384)
      const allowance = localUnitsOf({ rateLimitBurst: quota.rateLimitBurst, rateLimitLocalUnits: undefined })
      // More than the burst and the local allowance together: the rest came from the refill, at its rate.
      assert.isAbove(units, quota.rateLimitBurst + allowance + 10)
      assert.isAtLeast(seconds, (units - quota.rateLimitBurst - allowance) / quota.rateLimitRate)
      // Redis saw the units: the shared bucket is nearly spent once the replica has reconciled.
      yield* eventually("Redis holds the export's units", 10_000, Effect.gen(function*() {
        const keys = yield* client.send<Array<string>>("KEYS", "q4:*")
        const level = keys.length === 1 ? Number(yield* client.send<string>("HGET", keys[0]!, "l")) : undefined
        return level !== undefined && level < quota.rateLimitBurst / 2 ? level : undefined
      }))
    }), { timeout: 60_000 })

  it.live("Redis gone: requests pass (fail open), the metric and /readyz say so; Redis back: the quota applies again", () =>
    Effect.gen(function*() {
      const server = yield* redis
      // 5 units, refilled at one per 10 s: nothing comes back during the test.
      const { baseUrl, gatekeeper, registry } = yield* sharedServer(server.url, "q3:", { rateLimitRate: 0.1, rateLimitBurst: 5 })
      const meta = Effect.map(rawCall(baseUrl, "/v1/meta"), (reply) => reply.status)
      const readyz = Effect.map(rawCall(baseUrl, "/readyz"), (reply) => ({ status: reply.status, body: JSON.parse(reply.body.toString()), etag: reply.headers["etag"] }))
      const storeUp = () => /^equides_quota_store_up (\d)$/m.exec(registry.render())?.[1]

      const ready = yield* readyz
      assert.strictEqual(ready.status, 200)
      assert.notProperty(ready.body, "quota")
      assert.strictEqual(storeUp(), "1")
      for (let i = 0; i < 4; i++) assert.strictEqual(yield* meta, 200)
      assert.strictEqual(yield* meta, 429)

      yield* server.stop
      yield* eventually("the store is down", 10_000, Effect.sync(() => (gatekeeper.quota?.up === false ? true : undefined)))
      const degraded = yield* readyz
      assert.strictEqual(degraded.status, 200)
      assert.strictEqual(degraded.body.quota, "degraded")
      assert.notStrictEqual(degraded.etag, ready.etag)
      assert.strictEqual(storeUp(), "0")
      for (let i = 0; i < 20; i++) assert.strictEqual(yield* meta, 200)

      yield* server.start
      yield* eventually("the store is back", 15_000, Effect.sync(() => (gatekeeper.quota?.up === true ? true : undefined)))
      assert.strictEqual(storeUp(), "1")
      const back = yield* readyz
      assert.notProperty(back.body, "quota")
      assert.strictEqual(back.etag, ready.etag)
      // A fresh Redis: a full bucket again, then the quota bites.
      for (let i = 0; i < 4; i++) assert.strictEqual(yield* meta, 200)
      assert.strictEqual(yield* meta, 429)
    }), { timeout: 40_000 })

  it.live("Redis silent (its process stopped): the store goes down, decisions never wait; it comes back when Redis runs again", () =>
    Effect.gen(function*() {
      const server = yield* redis
      const store = yield* makeRedisQuota({ url: server.url, prefix: "q5:", rate: 1, burst: 5, localUnits: 5, timeout: Duration.millis(100) })
      yield* eventually("the store is up", 10_000, Effect.sync(() => (store.up ? true : undefined)))
      // Connected, but answering nothing until thawed (thawed whatever happens below).
      yield* Effect.acquireRelease(server.freeze, () => server.thaw)
      // Decided at once (a plain function call), from the local view, while Redis does not answer.
      for (let i = 0; i < 5; i++) assert.isTrue(store.take("a", 1, Date.now()).allowed)
      assert.isFalse(store.take("a", 1, Date.now()).allowed)
      yield* eventually("the store is down", 20_000, Effect.sync(() => (store.up ? undefined : true)))
      // Down: every request passes.
      for (let i = 0; i < 10; i++) assert.isTrue(store.take("a", 1, Date.now()).allowed)
      yield* server.thaw
      yield* eventually("the store is back", 20_000, Effect.sync(() => (store.up ? true : undefined)))
    }), { timeout: 60_000 })

  it.live("100 000 distinct callers: their keys expire by themselves and Redis's memory returns to where it was", () =>
    Effect.gen(function*() {
      const server = yield* redis
      const client = yield* redisClient(server.url)
      const prefix = "q4:"
      const store = yield* makeRedisQuota({ url: server.url, prefix, rate: 50, burst: 200, localUnits: 20, timeout: Duration.seconds(2) })
      yield* eventually("the store is up", 10_000, Effect.sync(() => (store.up ? true : undefined)))
      const dbsize = Effect.map(client.send("DBSIZE"), Number)
      const usedMemory = Effect.map(client.send<string>("INFO", "memory"), (info) => Number(/used_memory:(\d+)/.exec(info)?.[1]))
      // The script loaded and one key written and removed before the baseline.
      store.take("warm-up", 1, Date.now())
      yield* eventually("the warm-up key", 5000, Effect.map(dbsize, (n) => (n === 1 ? true : undefined)))
      yield* client.send("DEL", `${prefix}warm-up`)
      const baseline = yield* usedMemory

      const expired = Effect.map(client.send<string>("INFO", "stats"), (info) => Number(/expired_keys:(\d+)/.exec(info)?.[1]))
      const expiredBefore = yield* expired
      let peak = 0
      for (let batch = 0; batch < 100; batch++) {
        for (let i = 0; i < 1000; i++) store.take(`10.${batch}.${i >> 8}.${i & 255}`, 1, Date.now())
        yield* Effect.promise(() => sleep(10))
        if (batch % 20 === 19) peak = Math.max(peak, yield* dbsize)
      }
      assert.isTrue(store.up, "the store stayed up")
      // Keys come and go as the load goes (each lives about a second).
      assert.isAbove(peak, 2000)
      // Each key lives 1.02 s (1 unit at 50/s, plus a second); Redis expires them on its own.
      yield* eventually("every key expired", 25_000, Effect.map(dbsize, (n) => (n === 0 ? true : undefined)))
      assert.strictEqual((yield* expired) - expiredBefore, 100_000)
      yield* eventually("memory back to the baseline", 10_000, Effect.map(usedMemory, (used) => (used <= baseline + 256 * 1024 ? true : undefined)))
    }), { timeout: 60_000 })
})
