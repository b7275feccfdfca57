/**
 * Admission (design 2, 3): everything the pipeline decides about a request before anything
 * executes, as plain code over its method, URL, headers and peer address: the route template,
 * request size, the coding, the ETag, `If-None-Match`, the quota and the response cache.
 *
 * Two callers share one `Gatekeeper`:
 * - the front door (`frontDoor.ts`), in the Node server's own `request` event: what needs nothing
 *   executed (a 304, a kept response) is written there and then, without entering Effect;
 * - the pipeline (`pipeline.ts`), for everything else: it picks up the decision the front door
 *   took (so the quota is charged once), or admits the request itself when no front door ran
 *   (debug logging, a request with a body, a non-Node server).
 */
import { Api, Dataset, type DatasetData, type ProblemeApi } from "@equides/domain"
import { Clock, Context, Effect, Layer, LogLevel, References } from "effect"
import { FindMyWay, type HttpRouter, type HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Settings, type ServerSettings } from "./config.ts"
import { DOCUMENTATION_ROUTE } from "./documentation.ts"
import { cachePolicyOf, EXPLORER_ROUTES } from "./explorer/paths.ts"
import { makeNegotiator, type Negotiated } from "./middleware/compression.ts"
import { ifNoneMatchMatches, makeEtagger } from "./middleware/conditional.ts"
import { costOf, makeCallerKey, type QuotaState, rateLimitPolicy, TokenBuckets } from "./middleware/quota.ts"
import { isOversized, scanQuery } from "./middleware/requestSize.ts"
import { targetProblem } from "./middleware/requestTarget.ts"
import { ResponseCache } from "./middleware/responseCache.ts"
import { prefersHtml } from "./negotiation.ts"
import { CACHE_POLICY, COMMON_HEADERS } from "./responseHeaders.ts"
import { Telemetry } from "./telemetry.ts"

/**
 * The router's configuration. Paths are case-sensitive (the default is not): ids are, and one
 * resource has one URI, which caches and ETags rely on.
 */
export const ROUTER_CONFIG: Partial<FindMyWay.RouterConfig> = { caseSensitive: true }

/** Every path the service serves (all with GET and HEAD), each mapped to its route template. */
const routeTemplates = (): FindMyWay.Router<string> => {
  const router = FindMyWay.make<string>(ROUTER_CONFIG)
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => router.on("GET", endpoint.path as HttpRouter.PathInput, endpoint.path)
  })
  router.on("GET", DOCUMENTATION_ROUTE, DOCUMENTATION_ROUTE)
  for (const route of EXPLORER_ROUTES) router.on("GET", route as HttpRouter.PathInput, route)
  return router
}

export const PROBES: ReadonlySet<string> = new Set(["/healthz", "/readyz"])

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
 * - `cached`: the response cache holds the representation (`kept`);
 * - `probe`: `/healthz` or `/readyz`, run outside the concurrency gate;
 * - `route`: run through the router under the concurrency gate.
 */
export type Verdict = "preflight" | "malformed" | "oversized" | "tooMany" | "notModified" | "cached" | "probe" | "route"

/** A response kept by the cache, with what the front door needs to write it as it is. */
export interface Kept {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

/** What admission learnt about a request. */
interface Admitted {
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
  readonly etag: string | undefined
  readonly quota: QuotaState | undefined
}

/** An admitted request and its verdict; a `cached` one carries the response the cache keeps. */
export type Exchange =
  | Admitted & { readonly verdict: "cached"; readonly kept: Kept }
  | Admitted & { readonly verdict: "malformed"; readonly problem: ProblemeApi }
  | Admitted & { readonly verdict: Exclude<Verdict, "cached" | "malformed"> }

export class Gatekeeper {
  /** The served paths and their route templates (also what tells a 405 from a 404). */
  readonly templates = routeTemplates()
  private readonly templateOf = (path: string): string | undefined => this.templates.find("GET", path)?.handler
  private readonly etagOf: ReturnType<typeof makeEtagger>
  private readonly negotiate = makeNegotiator()
  private readonly callerKey: ReturnType<typeof makeCallerKey>
  private readonly hasData: boolean
  private readonly data: DatasetData
  private readonly clock: Clock.Clock
  readonly quota: TokenBuckets | undefined
  /** The `RateLimit-Policy` value, when a quota applies. */
  readonly policy: string | undefined
  readonly cache: ResponseCache<Kept>
  /** False when every request must go through the pipeline (debug logging writes a line per request). */
  readonly frontDoorOpen: boolean

  constructor(settings: ServerSettings, data: DatasetData, clock: Clock.Clock, frontDoorOpen: boolean) {
    this.data = data
    this.clock = clock
    this.hasData = data.size > 0
    this.etagOf = makeEtagger(data.provenance.fingerprint, data.provenance.ingestedAt)
    this.callerKey = makeCallerKey(settings.trustedProxies)
    this.quota = settings.rateLimitRate > 0 ? new TokenBuckets(settings.rateLimitRate, settings.rateLimitBurst) : undefined
    this.policy = this.quota === undefined ? undefined : rateLimitPolicy(settings.rateLimitRate, settings.rateLimitBurst)
    this.cache = new ResponseCache(settings.responseCacheBytes)
    this.frontDoorOpen = frontDoorOpen
  }

  /** Decides what happens to a request, charging its quota (once: call it once per request). */
  admit(method: string, url: string, headers: RequestHeaders, peer: string | undefined): Exchange {
    const started = performance.now()
    const now = this.clock.currentTimeMillisUnsafe()
    const q = url.indexOf("?")
    const route = this.templates.find("GET", q < 0 ? url : url.slice(0, q))?.handler
    const vary = route === "/" ? "Accept, Accept-Encoding" : "Accept-Encoding"
    const negotiated = this.negotiate(headerOf(headers, "accept-encoding"))
    const quota = this.quota
    const key = quota === undefined ? "" : this.callerKey(peer, headerOf(headers, "x-forwarded-for"))
    const admitted = (etag: string | undefined, state: QuotaState | undefined): Admitted => ({
      started,
      now,
      method,
      url,
      route,
      label: route ?? "unmatched",
      vary,
      negotiated,
      etag,
      quota: state
    })
    const decided = (etag: string | undefined, state: QuotaState | undefined, verdict: Exclude<Verdict, "cached" | "malformed">): Exchange => ({
      ...admitted(etag, state),
      verdict
    })

    const problem = targetProblem(url, this.templateOf)
    if (method === "OPTIONS" && route !== undefined && problem === undefined) return decided(undefined, quota?.take(key, 1, now), "preflight")

    const scan = scanQuery(url)
    const isRead = method === "GET" || method === "HEAD"
    // With no data, probes and data routes answer 503: they have no representation to validate.
    const representable = isRead && (this.hasData || route === undefined || !(route.startsWith("/v1/") || PROBES.has(route)))
    const etag = representable
      ? this.etagOf(url, negotiated.coding, route === "/" && prefersHtml(headerOf(headers, "accept")) ? "html" : "")
      : undefined
    if (problem !== undefined) {
      const charged = quota?.take(key, 1, now)
      return charged === undefined || charged.allowed
        ? { ...admitted(etag, charged), verdict: "malformed", problem }
        : decided(etag, charged, "tooMany")
    }
    if (isOversized(scan)) return decided(etag, quota?.peek(key, now), "oversized")

    const ifNoneMatch = etag === undefined ? undefined : headerOf(headers, "if-none-match")
    const notModified = ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag!)
    let state: QuotaState | undefined
    if (quota !== undefined) {
      state = quota.take(key, notModified ? 1 : costOf(route, scan, this.data), now)
      if (!state.allowed) return decided(etag, state, "tooMany")
    }
    if (notModified) return decided(etag, state, "notModified")
    if (etag !== undefined && this.cache.enabled) {
      const kept = this.cache.get(etag)
      if (kept !== undefined) return { ...admitted(etag, state), verdict: "cached", kept }
    }
    return decided(etag, state, route !== undefined && PROBES.has(route) ? "probe" : "route")
  }

  /**
   * The headers of a 304: those of the 200 it stands for that RFC 9110 (15.4.5) lists (ETag,
   * Cache-Control, Vary) plus those every response carries; no representation metadata.
   */
  notModifiedHeaders(exchange: Exchange): Record<string, string> {
    const headers: Record<string, string> = { ...COMMON_HEADERS, vary: exchange.vary, "cache-control": cachePolicyOf(exchange.route) ?? CACHE_POLICY, etag: exchange.etag ?? "" }
    if (this.policy !== undefined) headers["ratelimit-policy"] = this.policy
    return headers
  }
}

const isDebug = (level: LogLevel.LogLevel): boolean => LogLevel.isGreaterThanOrEqualTo("Debug", level)

/** The server's one `Gatekeeper`, shared by the front door and the pipeline. */
export class Admission extends Context.Service<Admission, Gatekeeper>()("@equides/server/Admission") {
  static readonly layer: Layer.Layer<Admission, never, Settings | Dataset | Telemetry> = Layer.effect(
    Admission,
    Effect.gen(function*() {
      const settings = yield* Settings
      const data = yield* Dataset
      const registry = yield* Telemetry
      const clock = yield* Effect.clockWith(Effect.succeed)
      const gatekeeper = new Gatekeeper(settings, data, clock, !isDebug(yield* References.MinimumLogLevel))
      const { cache, quota } = gatekeeper
      registry.datasetRows = data.size
      registry.gauge("equides_response_cache_bytes", "Bytes held by the response cache.", () => cache.bytes)
      registry.gauge("equides_response_cache_entries", "Responses held by the response cache.", () => cache.size)
      registry.counter("equides_response_cache_hits_total", "Requests answered from the response cache.", () => cache.hits)
      registry.gauge("equides_rate_limit_callers", "Callers whose quota bucket is not full (tracked in memory).", () => quota?.size ?? 0)
      return gatekeeper
    })
  )
}
