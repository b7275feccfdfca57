/**
 * The request pipeline: global router middleware that sees every request and can replace every
 * final response, matched route or not.
 *
 * Order, outermost first (design 2): request size check → quota (429) → `If-None-Match` (304) →
 * concurrency and deadline (503) → the router (HttpApi routes with their own middleware:
 * `Quota`, `Validation`, `Disponibilite`) → compression → response headers. The stages marked
 * "later" come with the caching/limits issue: insert each as its own `HttpRouter.middleware(…,
 * { global: true })` layer in `PipelineLive`, in that order (the first registered is outermost).
 * Metrics (requests by route and status, latency) wrap the whole, on the private listener's registry.
 *
 * Here now:
 * - `RouteProblems`: unmatched path → 404 problem; a path served under another method → 405
 *   problem with `Allow`; a defect → 500 problem (logged), so that every error is
 *   `application/problem+json`;
 * - `ResponseHeaders`: `application/json; charset=utf-8`.
 */
import { Api, Introuvable, MethodeNonAdmise } from "@equides/domain"
import { Cause, Effect, Layer } from "effect"
import { FindMyWay, HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse, ProblemDetails } from "effect/http"
import { HttpApi } from "effect/http-api"
import { DOCUMENTATION_ROUTE } from "./documentation.ts"
import { problemResponse } from "./problems.ts"

/**
 * The router's configuration. Paths are case-sensitive (the default is not): ids are, and one
 * resource has one URI, which caches and ETags rely on.
 */
export const ROUTER_CONFIG: Partial<FindMyWay.RouterConfig> = { caseSensitive: true }

/** Every path the service serves (all with GET and HEAD). */
const servedPaths = (): FindMyWay.Router<true> => {
  const router = FindMyWay.make<true>(ROUTER_CONFIG)
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => router.on("GET", endpoint.path as HttpRouter.PathInput, true)
  })
  router.on("GET", DOCUMENTATION_ROUTE, true)
  return router
}

const ALLOWED = "GET, HEAD"

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

const unmatched = (paths: FindMyWay.Router<true>, request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "GET" && request.method !== "HEAD" && paths.find("GET", request.url) !== undefined
    ? problemResponse(
      new MethodeNonAdmise({
        detail: `La méthode ${request.method} n'est pas admise : le service est en lecture seule.`,
        indice: `méthodes admises : ${ALLOWED}`
      }),
      { allow: ALLOWED }
    )
    : problemResponse(routeNotFound)

export const RouteProblems = HttpRouter.middleware(
  Effect.sync(() => {
    const paths = servedPaths()
    return (httpEffect) =>
      Effect.catchCause(httpEffect, (cause) => {
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
  }),
  { global: true }
)

const JSON_TYPE = "application/json"
const JSON_UTF8 = "application/json; charset=utf-8"

export const ResponseHeaders = HttpRouter.middleware(
  (httpEffect) =>
    Effect.map(httpEffect, (response) =>
      response.headers["content-type"] === JSON_TYPE
        ? HttpServerResponse.setHeader(response, "content-type", JSON_UTF8)
        : response),
  { global: true }
)

/** The global stages, outermost first. */
export const PipelineLive = Layer.mergeAll(ResponseHeaders, RouteProblems)
