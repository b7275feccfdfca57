/** Handlers of the `stats` group: global counts and the breakdown of a filtered selection. */
import { Api, Dataset, stats } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { jsonBody } from "./query.ts"

export const StatsHandlers = HttpApiBuilder.group(
  Api,
  "stats",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    return handlers.handleAll({
      global: () => Effect.succeed(stats(data)),
      repartition: ({ query }) => jsonBody(executor.answer({ endpoint: "repartition", query })),
      reproducteurs: ({ query, request }) => jsonBody(executor.answer({ endpoint: "reproducteurs", query, url: request.url }))
    })
  })
)
