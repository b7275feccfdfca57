/** Turning errors into problem responses (RFC 9457, `application/problem+json`). */
import {
  admittedValuesHint,
  type InvalidParameter,
  type ParamDoc,
  ParametreInvalide,
  type ProblemeApi,
  Refusals,
  unknownParameterHint
} from "@equides/domain"
import * as Effect from "effect/Effect"
import type * as SchemaIssue from "effect/SchemaIssue"
import { HttpServerRespondable, HttpServerResponse, ProblemDetails } from "effect/http"

/** The query engine's refusal of a parameter, as the API's 400 problem. */
export const fromInvalidParameter = (error: InvalidParameter): ParametreInvalide =>
  new ParametreInvalide({
    detail: error.detail,
    parametre: error.parametre,
    ...(error.indice === undefined ? {} : { indice: error.indice })
  })

/**
 * A defect's answer, wherever it happened (the pipeline's router, the front door, the direct
 * lane): a 500 `about:blank` problem that says nothing of the defect, which is logged instead.
 */
export const internalError = ProblemDetails.toResponse({
  type: ProblemDetails.blankType,
  title: "Internal Server Error",
  status: 500,
  detail: "Erreur interne du service."
})

/** A problem rendered as a response, with extra headers (`Allow`, `Retry-After`…). */
export const problemResponse = (
  problem: ProblemeApi,
  headers: Record<string, string> = {}
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  HttpServerRespondable.toResponse(problem).pipe(Effect.map(HttpServerResponse.setHeaders(headers)))

/** Seconds a client should wait when no data is loaded: a restart is needed, so not soon. */
export const RETRY_AFTER_NO_DATA_SECONDS = 60

type Refusal = "unknown" | "missing" | "value"

/** The first refused parameter of a decoding failure: its path (the parameter's name first) and what was wrong. */
const firstRefusal = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey> = []): { path: ReadonlyArray<PropertyKey>; refusal: Refusal } => {
  switch (issue._tag) {
    case "Pointer":
      return firstRefusal(issue.issue, [...path, ...issue.path])
    case "Composite":
      return firstRefusal(issue.issues[0], path)
    case "UnexpectedKey":
      return { path, refusal: "unknown" }
    case "MissingKey":
      return { path, refusal: "missing" }
    default:
      return { path, refusal: "value" }
  }
}

/** The names a route admits in its query string, in declaration order. */
const admittedQueryNames = (docs: ReadonlyArray<ParamDoc>): Array<string> =>
  docs.filter((doc) => doc.in === "query").map((doc) => doc.name)

/**
 * The refused value of `name`. A repeatable parameter arrives as a list once it is given twice;
 * the issue's path then says which element failed, and that element is named (`sexe=male&sexe=x`
 * refuses « x »). A list for a single-valued parameter is what was refused: it is repeated.
 */
const refusedValue = (
  name: string,
  raw: string | ReadonlyArray<string> | undefined,
  element: PropertyKey | undefined,
  doc: ParamDoc | undefined
): ParametreInvalide => {
  const indice = doc?.values !== undefined
    ? admittedValuesHint(doc.values)
    : doc !== undefined
    ? Refusals.expectedHint(doc.expected)
    : undefined
  const repeatable = doc?.schema.type === "array"
  const value = typeof raw === "string" ? raw : repeatable && typeof element === "number" ? raw?.[element] : undefined
  const detail = Array.isArray(raw) && !repeatable
    ? Refusals.parameterRepeated(name)
    : Refusals.valueNotAdmitted(name, value ?? "", doc?.expected)
  return new ParametreInvalide({ detail, parametre: name, ...(indice === undefined ? {} : { indice }) })
}

/**
 * The problem of parameters that failed decoding against the schema their `docs` describe (the
 * explorer's pages decode their query with the API's own parameter definitions, and refuse alike).
 */
export const issueProblem = (
  schemaIssue: SchemaIssue.Issue,
  location: "path" | "query",
  docs: ReadonlyArray<ParamDoc>,
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  params: Readonly<Record<string, string | undefined>>
): ParametreInvalide => {
  const { path, refusal } = firstRefusal(schemaIssue)
  const name = path[0] === undefined ? undefined : String(path[0])
  const admitted = admittedQueryNames(docs)
  if (name === "") {
    return new ParametreInvalide({ detail: Refusals.NAMELESS_PARAMETER, parametre: "", indice: unknownParameterHint("", admitted) })
  }
  if (name === undefined) {
    return new ParametreInvalide({ detail: "Les paramètres de la requête ne sont pas admis par cette route." })
  }
  // Unknown: refused as an excess key, or by the `never` values of a route admitting none.
  if (refusal === "unknown" || (location === "query" && !admitted.includes(name))) {
    return new ParametreInvalide({ detail: Refusals.parameterNotAdmitted(name), parametre: name, indice: unknownParameterHint(name, admitted) })
  }
  const doc = docs.find((d) => d.name === name && d.in === location)
  if (refusal === "missing") {
    return new ParametreInvalide({
      detail: Refusals.parameterRequired(name),
      parametre: name,
      ...(doc === undefined ? {} : { indice: Refusals.expectedHint(doc.expected) })
    })
  }
  return refusedValue(name, location === "path" ? params[name] : query[name], path[1], doc)
}
