/**
 * Admission (design 2, 3): everything decided about a request before anything executes, as plain
 * code over its method, URL, headers and peer address: the route template, the request target,
 * its size, the coding, the ETag, `If-None-Match`, the quota and the response cache. What needs
 * nothing executed (a preflight, a refusal, a 304, a kept response) is answered here too, as an
 * `Answer` (`answer.ts`).
 *
 * Two callers share one `Gatekeeper`:
 * - the front door (`node/frontDoor.ts`), in the Node server's own `request` event: it writes
 *   what `answer` returns there and then, without entering Effect;
 * - the pipeline (`pipeline/Pipeline.ts`), for everything else: it picks up the decision the front
 *   door took (so the quota is charged once), or admits the request itself when no front door ran
 *   (debug logging, a request with a body, a non-Node server), and writes the same answers.
 */
import { Dataset, type DatasetData, ParametreInvalide, type ProblemeApi, TropDeRequetes } from "@equides/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as References from "effect/References"
import { Settings, type ServerSettings } from "../config.ts"
import { Release, type ReleaseInfo } from "../release.ts"
import { Quota, type QuotaStore } from "./quotaStore.ts"
import { ALLOW } from "../responseHeaders.ts"
import { Telemetry } from "../telemetry.ts"
import type { Own } from "../own.ts"
import { type Answer, renderProblem, shapeAnswer, withRateLimit } from "./answer.ts"
import { makeNegotiator, type Negotiated, representationCoding } from "./coding.ts"
import { ifNoneMatchMatches, isWildcard, makeEtagger } from "./conditional.ts"
import { prefersHtml } from "./negotiation.ts"
import { makeCallerKey, type QuotaState, rateLimitPolicy, TokenBuckets, unitsOf } from "./quota.ts"
import { isOversized, MAX_QUERY_BYTES, MAX_QUERY_PARAMETERS, scanQuery } from "./requestSize.ts"
import { targetProblem } from "./requestTarget.ts"
import { exactBody, ResponseCache } from "./responseCache.ts"
import { executionCosts, PROBES, routeTemplates, templateFinder, UNCODED_ROUTES } from "./routes.ts"

/** What an uncoded route's body is sent as, whatever the request accepts. */
const UNCODED: Negotiated = { coding: "identity", identityRefused: false }

/** The methods of a CORS preflight's answer (`OPTIONS` itself is not asked for across origins). */
const ALLOWED = "GET, HEAD"

/**
 * RFC 9110 15.4.5: the headers of the 200 it stands for that caches need (ETag, Cache-Control,
 * Vary) and those every response carries; no representation metadata.
 */
const NOT_MODIFIED: Own = { status: 304, headers: {}, body: undefined }

const tooMany = renderProblem(
  new TropDeRequetes({ detail: "Le quota de requêtes de cette adresse est épuisé : réessayer après le délai de Retry-After." })
)

const oversized = renderProblem(
  new ParametreInvalide({
    detail: `La requête dépasse les limites : au plus ${MAX_QUERY_PARAMETERS} paramètres et ${MAX_QUERY_BYTES} octets de chaîne de requête.`,
    parametre: "query",
    indice: `au plus ${MAX_QUERY_PARAMETERS} paramètres et ${MAX_QUERY_BYTES} octets après « ? »`
  })
)

/** Request headers as Node and Effect both give them (lower-case names). */
export type RequestHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const headerOf = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name]
  return value === undefined || typeof value === "string" ? value : value.join(", ")
}

/**
 * What happens to an admitted request:
 * - `preflight`: an `OPTIONS` on a served path (204);
 * - `malformed`: a request target that is not canonical or does not decode (`problem`: a 404 or 400);
 * - `oversized`: too many parameters or too long a query (400);
 * - `tooMany`: the caller's quota is spent (429);
 * - `notModified`: `If-None-Match` matched (304, nothing executed);
 * - `cached`: the response cache holds the representation, or it is a probe's, kept once executed (`kept`);
 * - `probe`: `/healthz` or `/readyz`, run outside the concurrency gate;
 * - `route`: run through the router under the concurrency gate.
 */
export type Verdict = "preflight" | "malformed" | "oversized" | "tooMany" | "notModified" | "cached" | "probe" | "route"

/**
 * What admission learnt about a request, and its verdict. One shape for every verdict (the fields
 * a verdict does not use are undefined), built as one object: admission runs for every request,
 * and spreading partial objects cost more than the rest of it.
 */
export interface Exchange {
  /** `performance.now()` on arrival, for the latency metric. */
  readonly started: number
  /** Milliseconds by the `Clock` on arrival (quota, deadline). */
  readonly now: number
  readonly method: string
  readonly url: string
  /** The route template, or undefined when no route serves the path. */
  readonly route: string | undefined
  /** The route template or `unmatched`: the metrics label. */
  readonly label: string
  readonly vary: string
  readonly negotiated: Negotiated
  /** Another representation of the URI chosen by a request header (`html` for `GET /` as a page), or empty. */
  readonly variant: string
  readonly etag: string | undefined
  readonly quota: QuotaState | undefined
  /** `probe` and `route`: the caller's key (quota, fair share of the concurrency slots and of the query workers); else empty. */
  readonly caller: string
  /**
   * `route` (and `notModified`, `cached` when the quota is on): its route's declared execution cost
   * (ms of CPU at full scale, `routes.ts` `executionCosts`; 0 when it declares none): the quota's
   * units and the query workers' heavy lane (`execution/requester.ts`).
   */
  readonly executionMs: number
  readonly verdict: Verdict
  /** `cached`: the answer the cache keeps. */
  readonly kept: Answer | undefined
  /** `malformed`: the problem to answer (a 404 or 400). */
  readonly problem: ProblemeApi | undefined
  /** `preflight`: the headers it asks for. */
  readonly requestedHeaders: string | undefined
  /** `If-None-Match: *`: a success executed for it is answered 304 (`executed`). */
  readonly wildcard: boolean
  /**
   * One of the server's own requests before it serves (`node/rehearsal.ts`): no quota, no response
   * cache, no metrics, no log line; otherwise served as any request is.
   */
  readonly rehearsal: boolean
}

type Deciding = { -readonly [K in keyof Exchange]: Exchange[K] }

/** A probe asked for without a query: its answers are kept apart from the response cache (`probeAnswers`). */
const isPlainProbe = (route: string | undefined, url: string): boolean => route !== undefined && url === route && PROBES.has(route)

const settle = (exchange: Deciding, verdict: Verdict, state: QuotaState | undefined): Exchange => {
  exchange.verdict = verdict
  exchange.quota = state
  return exchange
}

export class Gatekeeper {
  /** The served paths and their route templates (also what tells a 405 from a 404). */
  readonly templates = routeTemplates()
  /** Each route's execution cost (ms of CPU at full scale), where it declares one. */
  private readonly executionMs = executionCosts()
  private readonly templateOf = templateFinder(this.templates)
  private readonly etagOf: ReturnType<typeof makeEtagger>
  private readonly negotiate = makeNegotiator()
  private readonly callerKey: ReturnType<typeof makeCallerKey>
  private readonly hasData: boolean
  private readonly data: DatasetData
  private readonly clock: Clock.Clock
  readonly quota: QuotaStore | undefined
  /** The `RateLimit-Policy` value, when a quota applies. */
  readonly policy: string | undefined
  readonly cache: ResponseCache<Answer>
  /**
   * The probes' answers (`/healthz`, `/readyz`, asked for without a query), by ETag, kept whatever
   * the response cache does (off with `RESPONSE_CACHE_MB=0`, or its entries evicted): once a probe
   * has executed, the next are answered at admission (`cached`), by the front door as soon as they
   * are read, instead of waiting in the application behind whatever it runs (under 50 connections
   * of `/v1/stats` with the cache off, the probe's p99 was 1.7× the bare server's). A few entries:
   * two probes, a validator per coding and variant.
   */
  private readonly probeAnswers = new Map<string, Answer>()
  /** False when every request must go through the pipeline (debug logging writes a line per request). */
  readonly frontDoorOpen: boolean

  /**
   * `release`: the API version and build that seed the ETags with the data's fingerprint; `store`:
   * where the buckets live when the quota is on (a shared one), else in this process.
   */
  constructor(settings: ServerSettings, data: DatasetData, release: ReleaseInfo, clock: Clock.Clock, frontDoorOpen: boolean, store?: QuotaStore) {
    this.data = data
    this.clock = clock
    this.hasData = data.size > 0
    this.etagOf = makeEtagger(data.provenance.fingerprint, data.provenance.ingestedAt, release)
    this.callerKey = makeCallerKey(settings.trustedProxies)
    this.quota = settings.rateLimitRate > 0 ? (store ?? new TokenBuckets(settings.rateLimitRate, settings.rateLimitBurst)) : undefined
    this.policy = this.quota === undefined ? undefined : rateLimitPolicy(settings.rateLimitRate, settings.rateLimitBurst)
    this.cache = new ResponseCache(settings.responseCacheBytes)
    this.frontDoorOpen = frontDoorOpen
  }

  /**
   * Decides what happens to a request, charging its quota (once: call it once per request); a
   * `rehearsal` is charged nothing and never answered from the cache.
   */
  admit(method: string, url: string, headers: RequestHeaders, peer: string | undefined, rehearsal = false): Exchange {
    const started = performance.now()
    const now = this.clock.currentTimeMillisUnsafe()
    const q = url.indexOf("?")
    const route = this.templateOf(q < 0 ? url : url.slice(0, q))
    const vary = route === "/" ? "Accept, Accept-Encoding" : "Accept-Encoding"
    const negotiated = route !== undefined && UNCODED_ROUTES.has(route) ? UNCODED : this.negotiate(headerOf(headers, "accept-encoding"))
    const quota = rehearsal ? undefined : this.quota
    const key = quota === undefined ? "" : this.callerKey(peer, headerOf(headers, "x-forwarded-for"))
    const exchange: Deciding = {
      started,
      now,
      method,
      url,
      route,
      label: route ?? "unmatched",
      vary,
      negotiated,
      variant: "",
      etag: undefined,
      quota: undefined,
      caller: key,
      executionMs: 0,
      verdict: "route",
      kept: undefined,
      problem: undefined,
      requestedHeaders: undefined,
      wildcard: false,
      rehearsal
    }
    const problem = targetProblem(url, this.templateOf)
    if (method === "OPTIONS" && route !== undefined && problem === undefined) {
      exchange.requestedHeaders = headerOf(headers, "access-control-request-headers")
      return settle(exchange, "preflight", quota?.take(key, 1, now))
    }

    const scan = scanQuery(url)
    const isRead = method === "GET" || method === "HEAD"
    // With no data, probes and data routes answer 503: they have no representation to validate.
    const representable = isRead && (this.hasData || route === undefined || !(route.startsWith("/v1/") || PROBES.has(route)))
    // `/readyz` says when the shared quota is degraded: another body, another validator.
    const variant = route === "/" && prefersHtml(headerOf(headers, "accept"))
      ? "html"
      : route === "/readyz" && quota?.up === false
      ? "quota-degraded"
      : ""
    const coding = representationCoding(negotiated)
    const etag = representable ? this.etagOf(url, coding, variant) : undefined
    exchange.variant = variant
    exchange.etag = etag
    if (problem !== undefined) {
      const charged = quota?.take(key, 1, now)
      if (charged !== undefined && !charged.allowed) return settle(exchange, "tooMany", charged)
      exchange.problem = problem
      return settle(exchange, "malformed", charged)
    }
    if (isOversized(scan)) return settle(exchange, "oversized", quota?.peek(key, now))

    const ifNoneMatch = etag === undefined ? undefined : headerOf(headers, "if-none-match")
    const notModified = ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag!)
    // `*` matches only a current representation: a kept one, or the success the route answers.
    exchange.wildcard = ifNoneMatch !== undefined && isWildcard(ifNoneMatch)
    exchange.executionMs = route === undefined ? 0 : this.executionMs.get(route) ?? 0
    let state: QuotaState | undefined
    if (quota !== undefined) {
      state = quota.take(key, notModified ? 1 : unitsOf(route, scan, this.data, exchange.executionMs), now)
      if (!state.allowed) return settle(exchange, "tooMany", state)
    }
    if (notModified) return settle(exchange, "notModified", state)
    const kept = etag === undefined || rehearsal ? undefined : this.keptAnswer(etag, route, url, coding, variant)
    if (kept !== undefined) {
      if (exchange.wildcard) return settle(exchange, "notModified", state)
      exchange.kept = kept
      return settle(exchange, "cached", state)
    }
    // Known when the quota is on; else taken now, only for what executes (the concurrency gate's fairness).
    if (quota === undefined) exchange.caller = this.callerKey(peer, headerOf(headers, "x-forwarded-for"))
    return settle(exchange, route !== undefined && PROBES.has(route) ? "probe" : "route", state)
  }

  /** The answer kept for `etag`: a probe's (whatever the response cache does), else the response cache's. */
  private keptAnswer(etag: string, route: string | undefined, url: string, coding: string, variant: string): Answer | undefined {
    const probe = isPlainProbe(route, url) ? this.probeAnswers.get(etag) : undefined
    return probe ?? (this.cache.enabled ? this.cache.get(etag, url, coding, variant) : undefined)
  }

  /**
   * The answer to a request that needs nothing executed (every verdict but `probe` and `route`,
   * which return `undefined`), with its `RateLimit`.
   */
  answer(exchange: Exchange): Answer | undefined {
    switch (exchange.verdict) {
      case "probe":
      case "route":
        return undefined
      case "cached":
        return withRateLimit(exchange.kept!, exchange.quota)
      case "notModified":
        return this.shaped(exchange, NOT_MODIFIED)
      case "preflight": {
        const requested = exchange.requestedHeaders
        return this.shaped(exchange, {
          status: 204,
          headers: {
            allow: ALLOW,
            "access-control-allow-methods": ALLOWED,
            "access-control-max-age": "86400",
            ...(requested === undefined ? {} : { "access-control-allow-headers": requested })
          },
          body: undefined
        })
      }
      case "malformed":
        return this.shaped(exchange, renderProblem(exchange.problem!))
      case "oversized":
        return this.shaped(exchange, oversized)
      case "tooMany":
        return this.shaped(exchange, {
          ...tooMany,
          headers: { ...tooMany.headers, "retry-after": String(exchange.quota?.retryAfterSeconds ?? 1) }
        })
    }
  }

  /**
   * What a route executed, shaped for this exchange, kept among the probes' answers when it is a
   * probe's success, and kept in the response cache when it is a
   * representation worth keeping: a success (an error is cheap to recompute, and random URIs must
   * not churn the cache) asked for before (`ResponseCache.wants`), its bytes in a buffer of their
   * own (a view would keep its whole backing buffer alive), without the caller's `RateLimit`.
   * A success asked for with `If-None-Match: *` is answered 304: the representation exists.
   */
  executed(exchange: Exchange, own: Own): Answer {
    const shaped = shapeAnswer(exchange, this.policy, own.status, own.headers, own.body)
    const success = shaped.status >= 200 && shaped.status < 300
    if (isPlainProbe(exchange.route, exchange.url) && exchange.etag !== undefined && success && shaped.body !== undefined && !exchange.rehearsal) {
      this.probeAnswers.set(exchange.etag, { ...shaped, body: exactBody(shaped.body) })
    }
    if (exchange.etag !== undefined && success && shaped.body !== undefined && !exchange.rehearsal && this.cache.wants(exchange.etag)) {
      const exact = exactBody(shaped.body)
      const { url, negotiated, variant } = exchange
      this.cache.set(exchange.etag, url, representationCoding(negotiated), variant, exact === shaped.body ? shaped : { ...shaped, body: exact }, exact)
    }
    if (success && exchange.wildcard) return this.shaped(exchange, NOT_MODIFIED)
    return withRateLimit(shaped, exchange.quota)
  }

  /** `own` with the contract's headers for this exchange, and its `RateLimit`. */
  shaped(exchange: Exchange, own: Own): Answer {
    return withRateLimit(shapeAnswer(exchange, this.policy, own.status, own.headers, own.body), exchange.quota)
  }
}

const ADMITTED = Symbol("equides/admitted")

type HandedOver = { [ADMITTED]?: Exchange | undefined }

/** Leaves the admission taken for a request on its Node message (`source`), for the pipeline. */
export const handOver = (source: object, exchange: Exchange): void => {
  ;(source as HandedOver)[ADMITTED] = exchange
}

/** The admission taken for the request whose Node message is `source`, if the front door ran. */
export const admittedAt = (source: object): Exchange | undefined => (source as HandedOver)[ADMITTED]

/**
 * The rehearsal's messages, kept beside them rather than marked on them: a property added to the
 * rehearsal's messages alone gave them a hidden class real requests do not have, so the code V8
 * optimised on them (Node's parser and streams, the front door) met a "wrong map" at the first real
 * requests and was recompiled under them (`--trace-deopt`, issue 24 item 6).
 */
const rehearsed = new WeakSet<object>()

/** Marks the request whose Node message is `source` as one of the rehearsal's (`node/rehearsal.ts`), before it is admitted. */
export const markRehearsal = (source: object): void => {
  rehearsed.add(source)
}

/** The request whose Node message is `source` is one of the rehearsal's. */
export const isRehearsal = (source: object): boolean => rehearsed.has(source)

const isDebug = (level: LogLevel.LogLevel): boolean => LogLevel.isGreaterThanOrEqualTo("Debug", level)

/** The server's one `Gatekeeper`, shared by the front door and the pipeline. */
export class Admission extends Context.Service<Admission, Gatekeeper>()("@equides/server/Admission") {
  static readonly layer: Layer.Layer<Admission, never, Settings | Dataset | Release | Telemetry> = Layer.effect(
    Admission,
    Effect.gen(function*() {
      const settings = yield* Settings
      const data = yield* Dataset
      const release = yield* Release
      const registry = yield* Telemetry
      const clock = yield* Effect.clockWith(Effect.succeed)
      const store = Option.getOrUndefined(yield* Effect.serviceOption(Quota))
      const gatekeeper = new Gatekeeper(settings, data, release, clock, !isDebug(yield* References.MinimumLogLevel), store)
      const { cache, quota } = gatekeeper
      registry.datasetRows = data.size
      registry.gauge("equides_response_cache_bytes", "Bytes held by the response cache.", () => cache.bytes)
      registry.gauge("equides_response_cache_entries", "Responses held by the response cache.", () => cache.size)
      registry.counter("equides_response_cache_hits_total", "Requests answered from the response cache.", () => cache.hits)
      registry.gauge("equides_rate_limit_callers", "Callers whose quota bucket is not full (tracked in memory).", () => quota?.size ?? 0)
      registry.gauge("equides_quota_store_up", "1 when the quota store answers (always, in memory); 0 while a shared store is unreachable and requests pass without quota.", () => quota === undefined || quota.up ? 1 : 0)
      return gatekeeper
    })
  )
}
