/** Handlers of the `stats` group that count their runs and can be slowed, for concurrency and caching tests. */
import { answer, Api, Dataset, DEFAULT_REPARTITION_DIMENSION, repartition, resolveFilters, select, stats } from "@equides/domain"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { jsonBody, orRefuse } from "../handlers/query.ts"
import type { StatsGroup } from "../handlers/stats.ts"

/** What the instrumented handlers saw: runs started and finished, in order (`global`, or `limite` of a repartition). */
export interface StatsProbe {
  started: number
  finished: number
  readonly order: Array<string>
}

export const makeProbe = (): StatsProbe => ({ started: 0, finished: 0, order: [] })

/**
 * The `stats` handlers, counting their runs in `probe` and, given a `delay`, sleeping that long
 * (on Effect's clock: `TestClock` in tests) before answering.
 */
export const instrumentedStats = (probe: StatsProbe, delay?: Duration.Input): StatsGroup =>
  HttpApiBuilder.group(
    Api,
    "stats",
    Effect.fnUntraced(function*(handlers) {
      const data = yield* Dataset
      const instrumented = <A, E>(label: string, answer: Effect.Effect<A, E>) =>
        Effect.suspend(() => {
          probe.started++
          probe.order.push(label)
          const answered = delay === undefined ? answer : Effect.delay(answer, delay)
          return Effect.map(answered, (value) => {
            probe.finished++
            return value
          })
        })
      return handlers.handleAll({
        global: () => instrumented("global", Effect.sync(() => stats(data))),
        repartition: ({ query }) =>
          instrumented(
            String(query.limite),
            Effect.flatMap(
              orRefuse(resolveFilters(data, query)),
              (filters) =>
                orRefuse(repartition(data, select(data, filters), query.dimension ?? DEFAULT_REPARTITION_DIMENSION, query.limite))
            )
          ),
        reproducteurs: ({ query, request }) =>
          instrumented("reproducteurs", jsonBody(Effect.fromResult(answer(data, { endpoint: "reproducteurs", query, url: request.url }))))
      })
    })
  )
