/**
 * A page's query string, decoded with the API's own parameter definitions (`@equides/domain`
 * `params`): the same names, bounds and refusals as the route whose answer the page shows. One
 * difference, because pages are driven by forms: an empty value means "not set" (a GET form sends
 * every field, filled or not) and is dropped, where the API refuses it.
 */
import type { ParamDoc, ParametreInvalide } from "@equides/domain"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { issueProblem } from "../problems.ts"
import type { Pairs } from "./paths.ts"


/** The pairs of a URL's query string, in order, empty values dropped. */
export const filledPairs = (url: string): Pairs => {
  const start = url.indexOf("?")
  if (start < 0) return []
  return [...new URLSearchParams(url.slice(start + 1))].filter(([, value]) => value.trim() !== "")
}

/** The record a query schema decodes: repeatable parameters as arrays, others as their value (twice: an array, refused). */
const recordOf = (pairs: Pairs, docs: ReadonlyArray<ParamDoc>): Record<string, string | Array<string>> => {
  const record: Record<string, string | Array<string>> = {}
  for (const [name, value] of pairs) {
    const repeatable = docs.find((doc) => doc.name === name)?.schema["type"] === "array"
    const known = record[name]
    if (repeatable) record[name] = Array.isArray(known) ? [...known, value] : [value]
    else record[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value]
  }
  return record
}

/** The decoded query of a page, or the 400 the API would give for these parameters. */
export const decodeQuery = <A>(
  schema: Schema.ConstraintDecoder<A>,
  docs: ReadonlyArray<ParamDoc>,
  pairs: Pairs
): Result.Result<A, ParametreInvalide> => {
  const record = recordOf(pairs, docs)
  const decoded = Schema.decodeUnknownResult(schema)(record, { onExcessProperty: "error" })
  return Result.isSuccess(decoded) ? Result.succeed(decoded.success) : Result.fail(issueProblem(decoded.failure.issue, "query", docs, record, {}))
}
