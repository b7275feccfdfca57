/** Handlers of the `stats` group: global counts and the breakdown of a filtered selection. */
import { Api, Dataset, DEFAULT_REPARTITION_DIMENSION, repartition, resolveFilters, select, stats } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { orRefuse } from "./query.ts"

export const StatsHandlers = HttpApiBuilder.group(
  Api,
  "stats",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    return handlers.handleAll({
      global: () => Effect.succeed(stats(data)),
      repartition: Effect.fnUntraced(function*({ query }) {
        const filters = yield* orRefuse(resolveFilters(data, query))
        return yield* orRefuse(repartition(data, select(data, filters), query.dimension ?? DEFAULT_REPARTITION_DIMENSION, query.limite))
      })
    })
  })
)
