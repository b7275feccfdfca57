/**
 * Handlers of the `consanguinite` group: a horse's inbreeding coefficient and a planned mating's.
 * The ids are resolved here (O(1): an unknown id is a 404); the pedigree walk, whose cost grows
 * with the depth, runs on the `Executor` (a query worker when there are).
 */
import { Api, Dataset, findEquide, foldValue, notAMare, parentNotFound, sameParent, sexeOf } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpApiBuilder } from "effect/http-api"
import { Executor } from "../execution/Executor.ts"
import { equideRow, jsonBody } from "./query.ts"

export const ConsanguiniteHandlers = HttpApiBuilder.group(
  Api,
  "consanguinite",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const executor = yield* Executor
    return handlers.handleAll({
      equide: ({ params, query }) =>
        Effect.flatMap(equideRow(data, params.id), (row) =>
          jsonBody(executor.answer({ endpoint: "consanguinite", row, generations: query.generations }))),
      accouplement: ({ query }) => {
        const pere = findEquide(data, query.pere)
        const mere = findEquide(data, query.mere)
        if (pere === undefined || mere === undefined) {
          return Effect.fail(parentNotFound(pere === undefined ? (mere === undefined ? ["pere", "mere"] : ["pere"]) : ["mere"]))
        }
        if (pere === mere) return Effect.fail(sameParent)
        return jsonBody(executor.answer({ endpoint: "accouplement", pere, mere, generations: query.generations }))
      },
      etalons: ({ query, request }) => {
        const mere = findEquide(data, query.mere)
        if (mere === undefined) return Effect.fail(parentNotFound(["mere"]))
        const sexe = sexeOf(data, mere)
        if (foldValue(sexe) !== foldValue("Femelle")) return Effect.fail(notAMare(sexe))
        return jsonBody(executor.answer({ endpoint: "etalons", mere, query, url: request.url }))
      }
    })
  })
)
