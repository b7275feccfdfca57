/**
 * Handlers of the `genetique` group. Both run as executions (on a query worker when the server has
 * some): a horse's columns are a lookup, but its breed's mean coancestry is one indirect pass over
 * the whole pedigree on the breed's first use, and a breed's figures run f_e and f_a.
 */
import { Api, Dataset } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { equideRow, jsonBody } from "./query.ts"

export const GenetiqueHandlers = HttpApiBuilder.group(
  Api,
  "genetique",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    return handlers.handleAll({
      equide: ({ params }) =>
        Effect.flatMap(equideRow(data, params.id), (row) => jsonBody(executor.answer({ endpoint: "genetique", request: { kind: "equide", row } }))),
      stats: ({ query }) => jsonBody(executor.answer({ endpoint: "genetique", request: { kind: "stats", query } }))
    })
  })
)
