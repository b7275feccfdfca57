/**
 * The request pipeline (design 2, 3): ONE global router middleware that sees every request,
 * matched route or not, and shapes every final response. One function rather than a stack of
 * middleware layers: the order is read top to bottom below, and each request pays for one closure.
 *
 * Order, for a request:
 *  1.–6. admission (`admission.ts`), taken by the front door as the request arrives or, when the
 *     front door did not run, here: route lookup (`OPTIONS` on a served path → 204 preflight);
 *     request size (over 64 parameters or 4096 bytes of query → 400 `parametre: "query"`); coding
 *     negotiated, ETag computed, `If-None-Match` compared; quota (1 unit when `If-None-Match`
 *     matched, else the URI's cost → 429); 304 when it matched; the response cache. The front door
 *     writes 304s and cached answers itself; here they are answered the same way;
 *  7. concurrency and deadline → 503. Probes skip it (constant-time, they must stay responsive
 *     under load) but pay the quota like any request (1 unit); 304s and cached answers never
 *     reach it (nothing executes);
 *  8. the router: `RouteProblems` (404/405/500 problems) around the HttpApi routes and their own
 *     middleware (`Validation`, `Quota` declaration, `Disponibilite`: no data → 503);
 *  9. response shaping: compression (then kept in the cache), `ETag` and `Cache-Control` (or
 *     `no-store` for 429, 503 and 5xx), `Vary`, `nosniff`, `Referrer-Policy`, CORS, on HTML pages
 *     `Content-Security-Policy` and `X-Frame-Options`,
 *     `RateLimit-Policy` / `RateLimit`, JSON charset; metrics recorded; a debug log line.
 *
 * Response shaping happens here, in the request's own fiber, outside the interruptible route: a
 * request cut at its deadline is interrupted inside the route and answered 503 here.
 */
import { Introuvable, MethodeNonAdmise, ParametreInvalide, ServiceSurcharge, TropDeRequetes } from "@equides/domain"
import { Cause, Clock, Context, Effect, type Fiber, LogLevel, Option, References, type Types } from "effect"
import { type FindMyWay, HttpBody, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse, ProblemDetails } from "effect/http"
import { Admission, type Exchange, type Kept } from "./admission.ts"
import { Settings } from "./config.ts"
import { admittedAt } from "./frontDoor.ts"
import { exactBody } from "./middleware/responseCache.ts"
import { compress, isCompressible, MIN_COMPRESSED_BYTES } from "./middleware/compression.ts"
import { Gate, type Waiter, watchdogTick } from "./middleware/concurrency.ts"
import { MAX_QUERY_BYTES, MAX_QUERY_PARAMETERS } from "./middleware/requestSize.ts"
import { rateLimitValue } from "./middleware/quota.ts"
import { cachePolicyOf } from "./explorer/paths.ts"
import { PAGE_SECURITY_HEADERS } from "./pages.ts"
import { problemResponse } from "./problems.ts"
import { ALLOW } from "./rawAnswers.ts"
import { CACHE_POLICY, COMMON_HEADERS } from "./responseHeaders.ts"
import { Telemetry, type UnavailableReason } from "./telemetry.ts"

export { ROUTER_CONFIG } from "./admission.ts"

/** The methods of a CORS preflight's answer (`OPTIONS` itself is not asked for across origins). */
const ALLOWED = "GET, HEAD"

// -----------------------------------------------------------------------------
// RouteProblems: what no handler answers, as problems

const routeNotFound = new Introuvable({
  detail: "Aucune route ne correspond à ce chemin.",
  indice: "GET / publie les routes servies et les gabarits d'URL",
  documentation: "/documentation"
})

const internalError = ProblemDetails.toResponse({
  type: ProblemDetails.blankType,
  title: "Internal Server Error",
  status: 500,
  detail: "Erreur interne du service."
})

const unmatched = (paths: FindMyWay.Router<string>, request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "GET" && request.method !== "HEAD" && paths.find("GET", request.url) !== undefined
    ? problemResponse(
      new MethodeNonAdmise({
        detail: `La méthode ${request.method} n'est pas admise : le service est en lecture seule.`,
        indice: `méthodes admises : ${ALLOW}`
      }),
      { allow: ALLOW }
    )
    : problemResponse(routeNotFound)

/**
 * Unmatched path → 404 problem; a path served under another method → 405 problem with `Allow`;
 * a defect → 500 problem (logged). Interruptions pass through (client gone, or deadline).
 */
const routeProblems = (paths: FindMyWay.Router<string>) => <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchCause(app, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
    const error = Cause.findErrorOption(cause)
    if (
      error._tag === "Some" && HttpServerError.isHttpServerError(error.value) &&
      error.value.reason._tag === "RouteNotFound"
    ) {
      return unmatched(paths, error.value.request)
    }
    return Effect.as(Effect.logError("Erreur interne", cause), internalError)
  })

// -----------------------------------------------------------------------------
// The contract

const JSON_TYPE = "application/json"
const JSON_UTF8 = "application/json; charset=utf-8"

type Response = HttpServerResponse.HttpServerResponse

/** The router's effect, as global middleware receives it. */
type App = Effect.Effect<Response, Types.unhandled>

/**
 * A response as the front door writes it from the cache: bytes, never encoded again, in a buffer
 * of their own (a view would keep its whole backing buffer alive in the cache).
 */
const toKept = (response: Response, body: Uint8Array): Kept => {
  const exact = exactBody(body)
  return {
    response: exact === body ? response : HttpServerResponse.setBody(response, HttpBody.uint8Array(exact, response.headers["content-type"])),
    status: response.status,
    headers: response.headers,
    body: exact
  }
}

const Contract = Effect.gen(function*() {
  const settings = yield* Settings
  const gatekeeper = yield* Admission
  const registry = yield* Telemetry
  const debug = LogLevel.isGreaterThanOrEqualTo("Debug", yield* References.MinimumLogLevel)

  const problems = routeProblems(gatekeeper.templates)
  const { cache, policy } = gatekeeper
  const gate = new Gate(settings.maxConcurrency, settings.maxConcurrency * 64)
  const timeoutMs = settings.requestTimeoutMs
  const overloadRetryAfter = String(Math.max(1, Math.ceil(timeoutMs / 1000)))

  registry.gauge("equides_requests_in_flight", "Requests executing (holding a concurrency slot).", () => gate.running)
  registry.gauge("equides_requests_queued", "Requests waiting for a concurrency slot.", () => gate.queued)

  // The watchdog (see middleware/concurrency.ts): one fiber for every deadline, on Effect's Clock.
  const tick = watchdogTick(timeoutMs)
  yield* Effect.forkScoped(Effect.forever(
    Effect.flatMap(Effect.sleep(tick), () => Effect.clockWith((clock) => Effect.sync(() => gate.sweep(clock.currentTimeMillisUnsafe()))))
  ))

  // Problems with a constant body, rendered once.
  const tooMany = yield* problemResponse(
    new TropDeRequetes({ detail: "Le quota de requêtes de cette adresse est épuisé : réessayer après le délai de Retry-After." })
  )
  const overloaded = yield* problemResponse(
    new ServiceSurcharge({
      detail: "Le service est saturé : la requête n'a pas pu être servie dans le délai imparti. Réessayer après le délai de Retry-After."
    })
  )
  const oversized = yield* problemResponse(
    new ParametreInvalide({
      detail: `La requête dépasse les limites : au plus ${MAX_QUERY_PARAMETERS} paramètres et ${MAX_QUERY_BYTES} octets de chaîne de requête.`,
      parametre: "query",
      indice: `au plus ${MAX_QUERY_PARAMETERS} paramètres et ${MAX_QUERY_BYTES} octets après « ? »`
    })
  )

  /** Headers every response gets, and the body compressed when it should be. */
  const shape = (response: Response, exchange: Exchange): Response => {
    const status = response.status
    const noStore = status === 429 || status === 503 || status >= 500
    const extra: Record<string, string> = { ...COMMON_HEADERS, vary: exchange.vary }
    if (noStore) {
      extra["cache-control"] = "no-store"
    } else {
      extra["cache-control"] = cachePolicyOf(exchange.route) ?? CACHE_POLICY
      if (exchange.etag !== undefined) extra["etag"] = exchange.etag
    }
    const contentType = response.headers["content-type"]
    if (contentType === JSON_TYPE) extra["content-type"] = JSON_UTF8
    else if (contentType?.startsWith("text/html") === true) Object.assign(extra, PAGE_SECURITY_HEADERS)
    if (policy !== undefined) extra["ratelimit-policy"] = policy

    const body = response.body
    const { coding, identityRefused } = exchange.negotiated
    if (
      coding !== "identity" && body._tag === "Uint8Array" && status >= 200 && status !== 204 && status !== 304 &&
      (body.contentLength >= MIN_COMPRESSED_BYTES || (identityRefused && body.contentLength > 0)) &&
      isCompressible(contentType)
    ) {
      extra["content-encoding"] = coding
      const { "content-length": _, "content-type": __, ...own } = response.headers
      return HttpServerResponse.uint8Array(compress(coding, body.body), {
        status,
        headers: { ...own, ...extra },
        contentType: extra["content-type"] ?? contentType ?? JSON_UTF8
      })
    }
    return HttpServerResponse.setHeaders(response, extra)
  }

  /** The last step of every request: `RateLimit`, metrics, the debug line. */
  const done = (response: Response, exchange: Exchange): Effect.Effect<Response> => {
    const sent = exchange.quota === undefined
      ? response
      : HttpServerResponse.setHeader(response, "ratelimit", rateLimitValue(exchange.quota))
    registry.record(exchange.label, sent.status, (performance.now() - exchange.started) / 1000)
    if (!debug) return Effect.succeed(sent)
    return Effect.as(
      Effect.logDebug("Requête servie").pipe(Effect.annotateLogs({
        "http.method": exchange.method,
        "http.url": exchange.url,
        "http.route": exchange.label,
        "http.status": sent.status,
        "http.ms": Math.round((performance.now() - exchange.started) * 100) / 100
      })),
      sent
    )
  }

  /** Shaped, kept in the cache when it is a representation worth keeping, then done. */
  const respond = (response: Response, exchange: Exchange): Effect.Effect<Response> => {
    // A 503 from the routes themselves: no data loaded (probes and data routes).
    if (response.status === 503) registry.recordUnavailable("no_data")
    const shaped = shape(response, exchange)
    const body = shaped.body
    // Successes only: an error is cheap to recompute, and random URIs must not churn the cache.
    if (exchange.etag !== undefined && cache.enabled && shaped.status >= 200 && shaped.status < 300 && body._tag === "Uint8Array") {
      const kept = toKept(shaped, body.body)
      cache.set(exchange.etag, kept, kept.body)
    }
    return done(shaped, exchange)
  }

  const unavailable = (reason: UnavailableReason, exchange: Exchange): Effect.Effect<Response> => {
    registry.recordUnavailable(reason)
    return done(shape(HttpServerResponse.setHeader(overloaded, "retry-after", overloadRetryAfter), exchange), exchange)
  }

  const preflight = (request: HttpServerRequest.HttpServerRequest): Response => {
    const requested = request.headers["access-control-request-headers"]
    return HttpServerResponse.empty({
      status: 204,
      headers: {
        allow: ALLOW,
        "access-control-allow-methods": ALLOWED,
        "access-control-max-age": "86400",
        ...(requested === undefined ? {} : { "access-control-allow-headers": requested })
      }
    })
  }

  return (app: App): Effect.Effect<Response, Types.unhandled, HttpServerRequest.HttpServerRequest> => {
    const routed = problems(app)

    /** Runs the route holding a slot; the watchdog may interrupt it at its deadline. */
    const run = (fiber: Fiber.Fiber<unknown, unknown>, exchange: Exchange, deadline: number) => {
      const ticket = { fiber, deadline, timedOut: false }
      gate.startRun(ticket)
      return Effect.matchCauseEffect(routed, {
        onSuccess: (response) => {
          gate.endRun(ticket)
          gate.leave()
          return respond(response, exchange)
        },
        onFailure: (cause) => {
          gate.endRun(ticket)
          gate.leave()
          return ticket.timedOut && Cause.hasInterrupts(cause) ? unavailable("run_timeout", exchange) : Effect.failCause(cause)
        }
      })
    }

    return Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const exchange = admittedAt(request.source) ??
        gatekeeper.admit(request.method, request.url, request.headers, Option.getOrUndefined(request.remoteAddress))

      switch (exchange.verdict) {
        case "preflight":
          return respond(preflight(request), exchange)
        case "malformed":
          return Effect.flatMap(problemResponse(exchange.problem), (response) => respond(response, exchange))
        case "oversized":
          return respond(oversized, exchange)
        case "tooMany":
          return done(
            shape(HttpServerResponse.setHeader(tooMany, "retry-after", String(exchange.quota?.retryAfterSeconds ?? 1)), exchange),
            exchange
          )
        case "notModified":
          return done(HttpServerResponse.empty({ status: 304, headers: gatekeeper.notModifiedHeaders(exchange) }), exchange)
        case "cached":
          return done(exchange.kept.response, exchange)
        case "probe":
          // Probes skip the concurrency gate: constant-time, they must stay responsive under load.
          return Effect.flatMap(routed, (response) => respond(response, exchange))
        case "route":
          break
      }

      // Concurrency and deadline.
      const deadline = exchange.now + timeoutMs
      if (gate.tryEnter()) return run(fiber, exchange, deadline)
      // Slow path: wait in the queue (interruptible: a client that leaves gives up its place).
      return Effect.interruptible(Effect.callback<"granted" | "expired" | "full">((resume) => {
        const waiter: Waiter = {
          deadline,
          settled: false,
          granted: false,
          // Resumed in a microtask, not on the stack of the fiber that freed the slot.
          resume: (granted) => queueMicrotask(() => resume(Effect.succeed(granted ? "granted" : "expired")))
        }
        if (!gate.enqueue(waiter)) return resume(Effect.succeed("full"))
        return Effect.sync(() => gate.cancel(waiter))
      })).pipe(
        Effect.flatMap((outcome) => {
          if (outcome === "full") return unavailable("queue_full", exchange)
          if (outcome === "expired") return unavailable("queue_timeout", exchange)
          if (fiber.getRef(Clock.Clock).currentTimeMillisUnsafe() >= deadline) {
            gate.leave()
            return unavailable("queue_timeout", exchange)
          }
          return run(fiber, exchange, deadline)
        })
      )
    })
  }
})

/** The pipeline as a global router middleware (sees every request, matched or not). */
export const PipelineLive = HttpRouter.middleware(Contract, {
  global: true
})
