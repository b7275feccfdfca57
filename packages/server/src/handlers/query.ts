/** Helpers shared by the handlers: running a query step that may refuse a parameter, request URIs, the unknown id. */
import { Introuvable, type InvalidParameter, type ParametreInvalide } from "@equides/domain"
import { Effect, Result } from "effect"
import { fromInvalidParameter } from "../problems.ts"

/** A query step's outcome: its value, or the 400 problem of the parameter it refused. */
export const orRefuse = <A>(result: Result.Result<A, InvalidParameter>): Effect.Effect<A, ParametreInvalide> =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(fromInvalidParameter(result.failure))

/** The request's query pairs, in request order (for pagination links). */
export const queryPairs = (url: string): Array<readonly [string, string]> => {
  const start = url.indexOf("?")
  return start < 0 ? [] : [...new URLSearchParams(url.slice(start + 1))]
}

/** One body for an unknown id and a malformed one alike (design 3): nothing of the id is echoed. */
export const equideNotFound = new Introuvable({ detail: "Aucun équidé ne porte cet identifiant dans le jeu de données servi." })
