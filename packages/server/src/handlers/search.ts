/** Handlers of the `search` group: name suggestions. */
import { anneeOf, Api, checkQ, clampSuggestLimite, Dataset, idOf, nomOf, raceOf, sexeOf, suggest } from "@equides/domain"
import type { Suggestion } from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { orRefuse } from "./query.ts"

export const SearchHandlers = HttpApiBuilder.group(
  Api,
  "search",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    return handlers.handleAll({
      suggest: Effect.fnUntraced(function*({ query }) {
        const q = yield* orRefuse(checkQ(query.q))
        const limite = clampSuggestLimite(query.limite)
        const resultats = suggest(data, q, limite).map(({ row, score }): Suggestion => {
          const annee = anneeOf(data, row)
          return {
            id: idOf(data, row),
            nom: nomOf(data, row),
            race: raceOf(data, row),
            sexe: sexeOf(data, row),
            ...(annee === undefined ? {} : { annee_naissance: annee }),
            score
          }
        })
        return { q, limite, resultats }
      })
    })
  })
)
