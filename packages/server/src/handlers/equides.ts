/** Handlers of the `equides` group: the list, one record, its pedigree and direct offspring. */
import { Api, Dataset, descendance, equide, findEquide, Introuvable, pedigree } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { jsonBody } from "./query.ts"

/** One body for an unknown id and a malformed one alike (design 3): nothing of the id is echoed. */
export const notFound = new Introuvable({ detail: "Aucun équidé ne porte cet identifiant dans le jeu de données servi." })

export const EquidesHandlers = HttpApiBuilder.group(
  Api,
  "equides",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    const rowOf = (id: string): Effect.Effect<number, Introuvable> => {
      const row = findEquide(data, id)
      return row === undefined ? Effect.fail(notFound) : Effect.succeed(row)
    }
    return handlers.handleAll({
      list: ({ query, request }) => jsonBody(executor.answer({ endpoint: "list", query, url: request.url })),
      get: ({ params }) => Effect.map(rowOf(params.id), (row) => equide(data, row)),
      pedigree: ({ params, query }) => Effect.map(rowOf(params.id), (row) => pedigree(data, row, query.generations)),
      descendance: ({ params, query }) =>
        Effect.map(rowOf(params.id), (row) => descendance(data, row, query.limite, query.offset))
    })
  })
)
