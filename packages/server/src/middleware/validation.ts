/**
 * `Validation`: a request whose parameters fail decoding becomes a 400
 * `#erreur-parametre-invalide` naming the parameter, read from the decoding failure's issue (its
 * tags, not its English text: `problems.ts` `issueProblem`). An unknown query parameter gets the nearest admitted name and the
 * admitted list as `indice`; a refused value gets what is expected. The messages are the domain's
 * (`Refusals`), the same the query engine writes.
 */
import { paramDocsOf, type ParametreInvalide, Validation } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { type HttpApiEndpoint, HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { issueProblem } from "../problems.ts"

/** The problem of a request that failed decoding (query or path parameters). */
export const parameterProblem = (
  error: HttpApiError.HttpApiSchemaError,
  endpoint: HttpApiEndpoint.Top,
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  params: Readonly<Record<string, string | undefined>>
): ParametreInvalide =>
  issueProblem(error.cause.issue, error.kind === "Params" ? "path" : "query", paramDocsOf(endpoint.annotations), query, params)

export const ValidationLive: Layer.Layer<Validation> = HttpApiMiddleware.layerSchemaErrorTransform(
  Validation,
  (error, { endpoint }) => {
    if (error.kind !== "Query" && error.kind !== "Params") {
      // Not a parameter: a response that fails its own schema is a defect of ours (500).
      return Effect.die(error)
    }
    return Effect.gen(function*() {
      const query = yield* HttpServerRequest.ParsedSearchParams
      const route = yield* HttpRouter.RouteContext
      return yield* parameterProblem(error, endpoint, query, route.params)
    })
  }
)
