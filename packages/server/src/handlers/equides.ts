/** Handlers of the `equides` group: the list, one record, its pedigree and direct offspring. */
import {
  Api,
  checkLimite,
  checkOffset,
  Dataset,
  descendance,
  equide,
  findEquide,
  type Introuvable,
  listPage,
  type PageEquides,
  paginationLinks,
  parseTri,
  pedigree,
  resolveFilters,
  resume,
  select
} from "@equides/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { equideNotFound, orRefuse, queryPairs } from "./query.ts"

const LIST_PATH = "/v1/equides"

export const EquidesHandlers = HttpApiBuilder.group(
  Api,
  "equides",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const rowOf = (id: string): Effect.Effect<number, Introuvable> => {
      const row = findEquide(data, id)
      return row === undefined ? Effect.fail(equideNotFound) : Effect.succeed(row)
    }
    return handlers.handleAll({
      list: Effect.fnUntraced(function*({ query, request }) {
        const filters = yield* orRefuse(resolveFilters(data, query))
        const tri = yield* orRefuse(parseTri(query.tri))
        const limite = yield* orRefuse(checkLimite(query.limite))
        const offset = yield* orRefuse(checkOffset(query.offset))
        const page = listPage(data, select(data, filters), tri, offset, limite)
        const links = paginationLinks(LIST_PATH, queryPairs(request.url), offset, limite, page.total)
        const pagination = { total: page.total, limite, offset, ...links }
        const rows = Array.from(page.rows)
        const body: PageEquides = query.vue === "complet"
          ? { donnees: rows.map((row) => equide(data, row)), pagination }
          : { donnees: rows.map((row) => resume(data, row)), pagination }
        return body
      }),
      get: ({ params }) => Effect.map(rowOf(params.id), (row) => equide(data, row)),
      pedigree: ({ params, query }) => Effect.map(rowOf(params.id), (row) => pedigree(data, row, query.generations)),
      descendance: ({ params, query }) =>
        Effect.map(rowOf(params.id), (row) => descendance(data, row, query.limite, query.offset))
    })
  })
)
