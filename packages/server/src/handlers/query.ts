/** Helpers shared by the handlers: running a query step that may refuse a parameter, executed bodies, the unknown id's 404. */
import { type DatasetData, equideNotFound, findEquide, type Introuvable, type InvalidParameter, type ParametreInvalide } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { HttpServerResponse } from "effect/http"
import { fromInvalidParameter } from "../problems.ts"
import { JSON_TYPE } from "../responseHeaders.ts"

/** A query step's outcome: its value, or the 400 problem of the parameter it refused. */
export const orRefuse = <A>(result: Result.Result<A, InvalidParameter>): Effect.Effect<A, ParametreInvalide> =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(fromInvalidParameter(result.failure))

/** An executed body (already encoded JSON, see `execution/Executor.ts`) as the response, or the 400 problem. */
export const jsonBody = <R>(body: Effect.Effect<Uint8Array, InvalidParameter, R>) =>
  Effect.mapError(Effect.map(body, (bytes) => HttpServerResponse.uint8Array(bytes, { contentType: JSON_TYPE })), fromInvalidParameter)

/** A lookup of an id's value (`undefined`: unknown id), or the 404 of an unknown id. */
export const orNotFound = <A>(value: A | undefined): Effect.Effect<A, Introuvable> =>
  value === undefined ? Effect.fail(equideNotFound) : Effect.succeed(value)

/** The row of the record an id names, or the 404 of an unknown id. */
export const equideRow = (data: DatasetData, id: string): Effect.Effect<number, Introuvable> => orNotFound(findEquide(data, id))
