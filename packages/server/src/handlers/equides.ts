/** Handlers of the `equides` group: the list, one record, its pedigree and direct offspring. */
import { Api, Dataset, descendance, equide, pedigree } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { equideRow, jsonBody } from "./query.ts"

export const EquidesHandlers = HttpApiBuilder.group(
  Api,
  "equides",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    const rowOf = (id: string) => equideRow(data, id)
    return handlers.handleAll({
      list: ({ query, request }) => jsonBody(executor.answer({ endpoint: "list", query, url: request.url })),
      get: ({ params }) => Effect.map(rowOf(params.id), (row) => equide(data, row)),
      pedigree: ({ params, query }) => Effect.map(rowOf(params.id), (row) => pedigree(data, row, query.generations)),
      descendance: ({ params, query }) =>
        Effect.map(rowOf(params.id), (row) => descendance(data, row, query.limite, query.offset))
    })
  })
)
