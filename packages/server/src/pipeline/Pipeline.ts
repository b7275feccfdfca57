/**
 * The request pipeline (design 2, 3): ONE global router middleware that sees every request,
 * matched route or not, and shapes every final response. One function rather than a stack of
 * middleware layers: the order is read top to bottom below, and each request pays for one closure.
 *
 * Order, for a request:
 *  1.–6. admission (`admission/Gatekeeper.ts`), taken by the front door as the request arrives or,
 *     when the front door did not run, here: route lookup (`OPTIONS` on a served path → 204
 *     preflight); request target (non-canonical → 404, bad encoding → 400); request size (over 64
 *     parameters or 4096 bytes of query → 400 `parametre: "query"`); coding negotiated, ETag
 *     computed, `If-None-Match` compared; quota (1 unit when `If-None-Match` matched, else the
 *     URI's cost → 429); 304 when it matched; the response cache. What admission answers without
 *     executing anything, the front door writes itself; here the same answer is written;
 *  7. concurrency (a caller holds at most half the slots while another waits) and deadline → 503. Probes skip it (constant-time, they must stay responsive
 *     under load) but pay the quota like any request (1 unit); 304s and cached answers never
 *     reach it (nothing executes);
 *  8. the router: `RouteProblems` (404/405/500 problems) around the HttpApi routes and their own
 *     middleware (`Validation`, `Quota` declaration, `Disponibilite`: no data → 503);
 *  9. response shaping (`admission/answer.ts`, the one answer path): compression (then kept in the
 *     cache), `ETag` and `Cache-Control` (or `no-store` for 429, 503 and 5xx), `Vary`, `nosniff`,
 *     `Referrer-Policy`, CORS, on HTML pages `Content-Security-Policy` and `X-Frame-Options`,
 *     `RateLimit-Policy` / `RateLimit`, JSON charset; then `send`: metrics recorded, a debug log line.
 *
 * Response shaping happens here, in the request's own fiber, outside the interruptible route: a
 * request cut at its deadline is interrupted inside the route and answered 503 here.
 */
import { Introuvable, MethodeNonAdmise, Refusals, ServiceSurcharge } from "@equides/domain"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as References from "effect/References"
import type * as Types from "effect/Types"
import { type FindMyWay, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type Answer, ownOf, renderProblem } from "../admission/answer.ts"
import { Admission, admittedAt, type Exchange, isRehearsal } from "../admission/Gatekeeper.ts"
import { Settings } from "../config.ts"
import { ALLOW } from "../responseHeaders.ts"
import { internalError, problemResponse } from "../problems.ts"
import { Telemetry, type UnavailableReason } from "../telemetry.ts"
import { CurrentRequester, requesterOf } from "../execution/requester.ts"
import { Gate, type Waiter, watchdogTick } from "./concurrency.ts"


// -----------------------------------------------------------------------------
// RouteProblems: what no handler answers, as problems

const routeNotFound = new Introuvable({
  detail: "Aucune route ne correspond à ce chemin.",
  indice: "GET / publie les routes servies et les gabarits d'URL",
  documentation: "/documentation"
})

const unmatched = (paths: FindMyWay.Router<string>, request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "GET" && request.method !== "HEAD" && paths.find("GET", request.url) !== undefined
    ? problemResponse(
      new MethodeNonAdmise({
        detail: Refusals.methodNotAdmitted(request.method),
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
// The pipeline

type Response = HttpServerResponse.HttpServerResponse

/** The router's effect, as global middleware receives it. */
type App = Effect.Effect<Response, Types.unhandled>

/** An answer as Effect's server writes it (the same status, headers and bytes the front door writes). */
const toResponse = (answer: Answer): Response =>
  answer.body === undefined
    ? HttpServerResponse.empty({ status: answer.status, headers: answer.headers })
    : HttpServerResponse.uint8Array(answer.body, { status: answer.status, headers: answer.headers })

const Pipeline = Effect.gen(function*() {
  const settings = yield* Settings
  const gatekeeper = yield* Admission
  const registry = yield* Telemetry
  const debug = LogLevel.isGreaterThanOrEqualTo("Debug", yield* References.MinimumLogLevel)

  const problems = routeProblems(gatekeeper.templates)
  const gate = new Gate(settings.maxConcurrency, settings.maxConcurrency * 64)
  const timeoutMs = settings.requestTimeoutMs
  const overloaded = renderProblem(
    new ServiceSurcharge({
      detail: "Le service est saturé : la requête n'a pas pu être servie dans le délai imparti. Réessayer après le délai de Retry-After."
    }),
    { "retry-after": String(Math.max(1, Math.ceil(timeoutMs / 1000))) }
  )

  registry.gauge("equides_requests_in_flight", "Requests executing (holding a concurrency slot).", () => gate.running)
  registry.gauge("equides_requests_queued", "Requests waiting for a concurrency slot.", () => gate.queued)

  // The watchdog (see middleware/concurrency.ts): one fiber for every deadline, on Effect's Clock.
  const tick = watchdogTick(timeoutMs)
  yield* Effect.forkScoped(Effect.forever(
    Effect.flatMap(Effect.sleep(tick), () => Effect.clockWith((clock) => Effect.sync(() => gate.sweep(clock.currentTimeMillisUnsafe()))))
  ))

  /** The last step of every request the pipeline answers: the response written, metrics, the debug line. */
  const send = (answer: Answer, exchange: Exchange): Effect.Effect<Response> => {
    const response = toResponse(answer)
    if (exchange.rehearsal) return Effect.succeed(response)
    registry.record(exchange.label, answer.status, (performance.now() - exchange.started) / 1000)
    if (!debug) return Effect.succeed(response)
    return Effect.as(servedLine(exchange, answer.status), response)
  }

  /** What the router answered, shaped and kept (`Gatekeeper.executed`), then sent. */
  const respond = (response: Response, exchange: Exchange): Effect.Effect<Response> => {
    // A 503 from the routes themselves: no data loaded (probes and data routes).
    if (response.status === 503 && !exchange.rehearsal) registry.recordUnavailable("no_data")
    const own = ownOf(response)
    // No route streams; were one to, it would be sent as it is, with the contract's headers.
    if (own === undefined) {
      const shaped = gatekeeper.shaped(exchange, { status: response.status, headers: response.headers, body: undefined })
      return Effect.succeed(HttpServerResponse.setHeaders(response, shaped.headers))
    }
    return send(gatekeeper.executed(exchange, own), exchange)
  }

  const unavailable = (reason: UnavailableReason, exchange: Exchange): Effect.Effect<Response> => {
    if (!exchange.rehearsal) registry.recordUnavailable(reason)
    return send(gatekeeper.shaped(exchange, overloaded), exchange)
  }

  return (app: App): Effect.Effect<Response, Types.unhandled, HttpServerRequest.HttpServerRequest> => {
    const routed = problems(app)

    /**
     * Runs the route holding a slot, its executions queued on the query workers for its caller and
     * in its route's lane; the watchdog may interrupt it at its deadline.
     */
    const run = (fiber: Fiber.Fiber<unknown, unknown>, exchange: Exchange, deadline: number) => {
      const ticket = { fiber, deadline, timedOut: false }
      gate.startRun(ticket)
      return Effect.matchCauseEffect(Effect.provideService(routed, CurrentRequester, requesterOf(exchange.caller, exchange.executionMs, exchange.rehearsal)), {
        onSuccess: (response) => {
          gate.endRun(ticket)
          gate.leave(exchange.caller)
          return respond(response, exchange)
        },
        onFailure: (cause) => {
          gate.endRun(ticket)
          gate.leave(exchange.caller)
          return ticket.timedOut && Cause.hasInterrupts(cause) ? unavailable("run_timeout", exchange) : Effect.failCause(cause)
        }
      })
    }

    return Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const exchange = admittedAt(request.source) ??
        gatekeeper.admit(request.method, request.url, request.headers, Option.getOrUndefined(request.remoteAddress), isRehearsal(request.source))

      if (exchange.verdict === "probe") {
        // Probes skip the concurrency gate: constant-time, they must stay responsive under load.
        return Effect.flatMap(routed, (response) => respond(response, exchange))
      }
      const answered = gatekeeper.answer(exchange)
      if (answered !== undefined) return send(answered, exchange)

      // Concurrency and deadline.
      const deadline = exchange.now + timeoutMs
      if (gate.tryEnter(exchange.caller)) return run(fiber, exchange, deadline)
      // Slow path: wait in the queue (interruptible: a client that leaves gives up its place).
      return Effect.interruptible(Effect.callback<"granted" | "expired" | "full">((resume) => {
        const waiter: Waiter = {
          caller: exchange.caller,
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
            gate.leave(exchange.caller)
            return unavailable("queue_timeout", exchange)
          }
          return run(fiber, exchange, deadline)
        })
      )
    })
  }
})

/** The debug line of a request served: the pipeline's, and the front door's exports under debug logging. */
export const servedLine = (exchange: Exchange, status: number): Effect.Effect<void> =>
  Effect.logDebug("Requête servie").pipe(Effect.annotateLogs({
    "http.method": exchange.method,
    "http.url": exchange.url,
    "http.route": exchange.label,
    "http.status": status,
    "http.ms": Math.round((performance.now() - exchange.started) * 100) / 100
  }))

/** The pipeline as a global router middleware (sees every request, matched or not). */
export const PipelineLive = HttpRouter.middleware(Pipeline, {
  global: true
})
