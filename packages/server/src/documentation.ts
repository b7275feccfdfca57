/** `GET /documentation`: the HTML guide, with one anchored section per problem type. */
import { ParametreInvalide, Refusals, unknownParameterHint } from "@equides/domain"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { documentationPage } from "./pages.ts"
import { problemResponse } from "./problems.ts"

export const DOCUMENTATION_ROUTE = "/documentation" as const

const page = HttpServerResponse.text(documentationPage, { contentType: "text/html; charset=utf-8" })

export const DocumentationRoute = HttpRouter.add(
  "GET",
  DOCUMENTATION_ROUTE,
  Effect.gen(function*() {
    const query = yield* HttpServerRequest.ParsedSearchParams
    const name = Object.keys(query)[0]
    if (name === undefined) return page
    return yield* problemResponse(
      new ParametreInvalide({
        detail: Refusals.parameterNotAdmitted(name),
        parametre: name,
        indice: unknownParameterHint(name, [])
      })
    )
  })
)
