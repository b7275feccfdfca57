/** Turning errors into problem responses (RFC 9457, `application/problem+json`). */
import { type InvalidParameter, ParametreInvalide, type ProblemeApi } from "@equides/domain"
import { Effect } from "effect"
import { HttpServerRespondable, HttpServerResponse, ProblemDetails } from "effect/http"

/** The query engine's refusal of a parameter, as the API's 400 problem. */
export const fromInvalidParameter = (error: InvalidParameter): ParametreInvalide =>
  new ParametreInvalide({
    detail: error.detail,
    parametre: error.parametre,
    ...(error.indice === undefined ? {} : { indice: error.indice })
  })

/**
 * A defect's answer, wherever it happened (the pipeline's router, the front door, the direct
 * lane): a 500 `about:blank` problem that says nothing of the defect, which is logged instead.
 */
export const internalError = ProblemDetails.toResponse({
  type: ProblemDetails.blankType,
  title: "Internal Server Error",
  status: 500,
  detail: "Erreur interne du service."
})

/** A problem rendered as a response, with extra headers (`Allow`, `Retry-After`…). */
export const problemResponse = (
  problem: ProblemeApi,
  headers: Record<string, string> = {}
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  HttpServerRespondable.toResponse(problem).pipe(Effect.map(HttpServerResponse.setHeaders(headers)))

/** Seconds a client should wait when no data is loaded: a restart is needed, so not soon. */
export const RETRY_AFTER_NO_DATA_SECONDS = 60
