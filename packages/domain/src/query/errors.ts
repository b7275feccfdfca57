/**
 * The one error of the query engine: a parameter whose value the contract does not admit.
 * The server maps it to a 400 problem (`#erreur-parametre-invalide`), copying `parametre`,
 * `detail` and `indice` into the problem's extensions.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { valueNotAdmitted } from "../refusal/messages.ts"

export class InvalidParameter extends Schema.TaggedError<InvalidParameter>()("InvalidParameter", {
  /** The faulty parameter, as named in the query (`race`, `annee_naissance`, `dimension`…). */
  parametre: Schema.String,
  /** Explanation for this occurrence, in French. */
  detail: Schema.String,
  /** Hint: nearest admitted values and/or the reference list to consult. */
  indice: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return this.detail
  }
}

/** Outcome of a query step that may refuse a parameter. */
export type QueryResult<A> = Result.Result<A, InvalidParameter>

/** « La valeur « Xyz » n'est pas admise pour race. » */
export const notAdmitted = (parametre: string, value: string, indice?: string): InvalidParameter =>
  new InvalidParameter({ parametre, detail: valueNotAdmitted(parametre, value), ...(indice === undefined ? {} : { indice }) })
