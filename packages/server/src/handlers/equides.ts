/** Handlers of the `equides` group: the list, one record, its pedigree and direct offspring. */
import { Api, Dataset } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { descendanceOf, pedigreeOf, recordOf } from "../execution/lookups.ts"
import { equideRow, jsonBody, orNotFound } from "./query.ts"

export const EquidesHandlers = HttpApiBuilder.group(
  Api,
  "equides",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    return handlers.handleAll({
      list: ({ query, request }) => jsonBody(executor.answer({ endpoint: "list", query, url: request.url })),
      get: ({ params }) => orNotFound(recordOf(data, params.id)),
      pedigree: ({ params, query }) => orNotFound(pedigreeOf(data, params.id, query)),
      descendance: ({ params, query }) => orNotFound(descendanceOf(data, params.id, query)),
      descendanceStatistiques: ({ params }) =>
        Effect.flatMap(equideRow(data, params.id), (row) => jsonBody(executor.answer({ endpoint: "descendanceStatistiques", row })))
    })
  })
)
