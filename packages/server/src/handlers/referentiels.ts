/** Handlers of the `referentiels` group: the values admitted by a filter. */
import { Api, Dataset, referential } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { orRefuse } from "./query.ts"

export const ReferentielsHandlers = HttpApiBuilder.group(
  Api,
  "referentiels",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    return handlers.handleAll({
      get: ({ params }) => orRefuse(referential(data, params.dimension))
    })
  })
)
