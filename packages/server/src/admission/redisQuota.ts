/**
 * The quota shared through Redis (`RATE_LIMIT_STORE=redis://…`, issue 12): `SharedBuckets`
 * decides every request from its mirrors, and this module carries its debits to Redis
 * (`quotaScript.ts`, through `effect/persistence/Redis` over `@effect/platform-node`'s `NodeRedis`).
 *
 * Redis is never on a request's path and never stops the service:
 * - the client connects in the background: the server starts and serves (fail open) while Redis is
 *   unreachable, and node-redis reconnects with a capped exponential backoff;
 * - a call that takes longer than `RATE_LIMIT_STORE_TIMEOUT_MS` (50 ms) or fails marks the store down: every request is
 *   then admitted; a `PING` every `PROBE_EVERY` (and the client's `ready`) brings it back up;
 * - commands are not queued while disconnected (`disableOfflineQueue`): they fail at once;
 * - one log line per transition (down, back), the state on `equides_quota_store_up` and in
 *   `/readyz` (`quota: "degraded"`).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as Schedule from "effect/Schedule"
import { Redis } from "effect/persistence"
import type { ServerSettings } from "../config.ts"
import { debitScript } from "./quotaScript.ts"
import { Quota } from "./quotaStore.ts"
import { SharedBuckets } from "./sharedBuckets.ts"

/** Debits sent in one script call at most (the script holds Redis while it runs). */
const MAX_BATCH = 100
/** How often a down store is probed. */
export const PROBE_EVERY = Duration.millis(500)

/** Capped exponential backoff with jitter, for ever: Redis may come (back) at any time. */
const reconnectDelay = (retries: number): number => Math.min(50 * 2 ** retries, 2000) + Math.floor(Math.random() * 100)

/** `redis://user:secret@host:6379/2` → `redis://host:6379/2`: what the logs may say. */
export const redactedUrl = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`
}

/**
 * The units a replica may admit per caller before Redis confirms them (U): `RATE_LIMIT_LOCAL_UNITS`,
 * else a tenth of the burst but at least 10 (at most the burst): a client sending requests one
 * after the other, or a few at once, must not find the allowance spent while a debit is on its way.
 */
export const localUnitsOf = (settings: Pick<ServerSettings, "rateLimitBurst" | "rateLimitLocalUnits">): number =>
  settings.rateLimitLocalUnits ?? Math.min(settings.rateLimitBurst, Math.max(10, Math.ceil(settings.rateLimitBurst / 10)))

export interface RedisQuotaOptions {
  readonly url: string
  readonly rate: number
  readonly burst: number
  readonly localUnits: number
  readonly prefix: string
  /** The longest a call may take before the store is taken for down (the decisions never wait for it). */
  readonly timeout: Duration.Duration
}

/** A Redis call that has not answered in time. */
export class StoreTimeout extends Data.TaggedError("StoreTimeout")<{ readonly ms: number }> {}

/**
 * `effect`, failing with `StoreTimeout` when it has not answered within `ms`. Judged after the
 * event loop has read what arrived: on a starved machine a timer and the reply it waits for can be
 * due together, and timers run first (`Effect.timeout` would blame Redis for our own delay).
 */
const answeredWithin = <A, E>(effect: Effect.Effect<A, E>, ms: number): Effect.Effect<A, E | StoreTimeout> =>
  Effect.callback<A, E | StoreTimeout>((resume) => {
    let settled = false
    const timer = setTimeout(() =>
      setImmediate(() => {
        if (settled) return
        settled = true
        resume(Effect.fail(new StoreTimeout({ ms })))
      }), ms)
    const fiber = Effect.runFork(effect)
    fiber.addObserver((exit) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(exit)
    })
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      fiber.interruptUnsafe()
    })
  })

const describeCause = (cause: unknown): string =>
  cause instanceof StoreTimeout
    ? `pas de réponse en ${cause.ms} ms`
    : cause instanceof Redis.RedisError
    ? String(cause.cause)
    : String(cause)

/** The shared store, connecting in the background for the life of the scope. */
export const makeRedisQuota = Effect.fnUntraced(function*(options: RedisQuotaOptions) {
  const runFork = Effect.runForkWith(yield* Effect.context<never>())
  const timeoutMs = Duration.toMillis(options.timeout)
  const clock = yield* Effect.clockWith(Effect.succeed)
  const where = redactedUrl(options.url)
  let debit: ((keys: ReadonlyArray<string>, units: ReadonlyArray<number>, rate: number, burst: number, now: number) => Effect.Effect<ReadonlyArray<string>, unknown>) | undefined
  let state: "starting" | "up" | "down" | "closed" = "starting"

  // The debits of one turn of the event loop travel together: one script call, one reply.
  let keys: Array<string> = []
  let units: Array<number> = []
  const drain = (): void => {
    const sent = keys
    const amounts = units
    keys = []
    units = []
    if (sent.length === 0) return
    if (debit === undefined) return sent.forEach((key) => store.failed(key))
    const call = debit(sent.map((key) => options.prefix + key), amounts, options.rate, options.burst, clock.currentTimeMillisUnsafe())
    runFork(answeredWithin(call, timeoutMs).pipe(
      Effect.matchEffect({
        onSuccess: (replies) =>
          Effect.sync(() => {
            for (let i = 0; i < sent.length; i++) store.settled(sent[i], Number(replies[2 * i]), Number(replies[2 * i + 1]))
          }),
        onFailure: (error) => Effect.andThen(Effect.sync(() => sent.forEach((key) => store.failed(key))), markDown(error))
      })
    ))
  }
  const store = new SharedBuckets(options.rate, options.burst, options.localUnits, (key, amount) => {
    keys.push(key)
    units.push(amount)
    if (keys.length === 1) setImmediate(drain)
    else if (keys.length >= MAX_BATCH) drain()
  })

  const markDown = (cause: unknown) =>
    Effect.suspend(() => {
      if (state === "down" || state === "closed") return Effect.void
      state = "down"
      store.setUp(false)
      return Effect.logWarning(`Quota : Redis ${where} injoignable, les requêtes passent sans quota jusqu'à son retour`).pipe(
        Effect.annotateLogs("cause", describeCause(cause))
      )
    })
  const markUp = Effect.suspend(() => {
    if (state === "up" || state === "closed") return Effect.void
    const back = state === "down"
    state = "up"
    store.setUp(true)
    return Effect.logInfo(back ? `Quota : Redis ${where} de retour, le quota s'applique de nouveau` : `Quota partagé par Redis ${where}`)
  })

  yield* Effect.forkScoped(Effect.gen(function*() {
    // Loaded here, not with the server: the client and its dependencies are a tenth of a second of
    // every start, and only a server sharing its quota through Redis needs them.
    const NodeRedis = yield* Effect.promise(() => import("@effect/platform-node/NodeRedis"))
    // node-redis retries the first connection too (the strategy is ours), so this waits for Redis;
    // its own per-attempt warnings are silenced: the transitions are logged here, once each.
    const services = yield* Layer.build(NodeRedis.layer({
      url: options.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 1000, reconnectStrategy: reconnectDelay }
    })).pipe(Effect.provideService(References.MinimumLogLevel, "Error"))
    const redis = Context.get(services, Redis.Redis)
    const { client } = Context.get(services, NodeRedis.NodeRedis)
    debit = redis.eval(debitScript)
    const probe = answeredWithin(redis.send("PING"), timeoutMs).pipe(
      Effect.matchEffect({ onSuccess: () => markUp, onFailure: markDown })
    )
    client.on("error", (error: unknown) => runFork(markDown(error)))
    client.on("ready", () => runFork(probe))
    yield* probe
    yield* Effect.repeat(Effect.suspend(() => (state === "up" ? Effect.void : probe)), Schedule.spaced(PROBE_EVERY))
  }))
  // Registered last, run first: calls failing because the client closes are no news.
  yield* Effect.addFinalizer(() => Effect.sync(() => (state = "closed")))
  // Said once at start when the first attempt fails (the client keeps trying).
  yield* Effect.forkScoped(Effect.andThen(Effect.sleep(Duration.seconds(1)), Effect.suspend(() => (state === "starting" ? markDown("pas de connexion après 1 s") : Effect.void))))
  return store
})

/** The `Quota` of `settings`: shared through Redis when `RATE_LIMIT_STORE` names one and the quota is on, else none (memory). */
export const quotaLayer = (settings: ServerSettings): Layer.Layer<Quota> | Layer.Layer<never> =>
  settings.rateLimitStore === "memory" || settings.rateLimitRate === 0
    ? Layer.empty
    : Layer.effect(
      Quota,
      makeRedisQuota({
        url: settings.rateLimitStore,
        rate: settings.rateLimitRate,
        burst: settings.rateLimitBurst,
        localUnits: localUnitsOf(settings),
        prefix: settings.rateLimitPrefix,
        timeout: Duration.millis(settings.rateLimitStoreTimeoutMs)
      })
    )
