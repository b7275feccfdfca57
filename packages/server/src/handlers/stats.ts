/** Handlers of the `stats` group: global counts and the breakdown of a filtered selection. */
import { Api, type Dataset } from "@equides/domain"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { jsonBody } from "./query.ts"

export const StatsHandlers = HttpApiBuilder.group(
  Api,
  "stats",
  Effect.fnUntraced(function*(handlers) {
    const executor = yield* Executor
    return handlers.handleAll({
      global: () => jsonBody(executor.answer({ endpoint: "stats" })),
      repartition: ({ query }) => jsonBody(executor.answer({ endpoint: "repartition", query })),
      reproducteurs: ({ query, request }) => jsonBody(executor.answer({ endpoint: "reproducteurs", query, url: request.url }))
    })
  })
)

/** The `stats` group's handlers as the application takes them: the real ones, or a test's (which may read the Dataset). */
export type StatsGroup = Layer.Layer<Layer.Success<typeof StatsHandlers>, never, Layer.Services<typeof StatsHandlers> | Dataset>
