/** Handlers of the `search` group: name suggestions. */
import { Api } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { jsonBody } from "./query.ts"

export const SearchHandlers = HttpApiBuilder.group(
  Api,
  "search",
  Effect.fnUntraced(function*(handlers) {
    const executor = yield* Executor
    return handlers.handleAll({
      suggest: ({ query }) => jsonBody(executor.answer({ endpoint: "suggest", query }))
    })
  })
)
