/**
 * `Validation`: a request whose parameters fail decoding becomes a 400
 * `#erreur-parametre-invalide` naming the parameter, read from the decoding failure's issue (its
 * tags, not its English text). An unknown query parameter gets the nearest admitted name and the
 * admitted list as `indice`; a refused value gets what is expected. The messages are the domain's
 * (`Refusals`), the same the query engine writes.
 */
import {
  admittedValuesHint,
  type ParamDoc,
  paramDocsOf,
  ParametreInvalide,
  Refusals,
  unknownParameterHint,
  Validation
} from "@equides/domain"
import { Effect, Layer, type SchemaIssue } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { type HttpApiEndpoint, HttpApiError, HttpApiMiddleware } from "effect/http-api"

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

/** The problem of a request that failed decoding (query or path parameters). */
export const parameterProblem = (
  error: HttpApiError.HttpApiSchemaError,
  endpoint: HttpApiEndpoint.Top,
  query: Readonly<Record<string, string | ReadonlyArray<string>>>,
  params: Readonly<Record<string, string | undefined>>
): ParametreInvalide =>
  issueProblem(error.cause.issue, error.kind === "Params" ? "path" : "query", paramDocsOf(endpoint.annotations), query, params)

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
export const ValidationLive: Layer.Layer<Validation> = HttpApiMiddleware.layerSchemaErrorTransform(
  Validation,
  (error, { endpoint }) => {
    if (error.kind !== "Query" && error.kind !== "Params") {
      // Not a parameter: a response that fails its own schema is a defect of ours (500).
      return Effect.die(error)
    }
    return Effect.gen(function*() {
      const query = yield* HttpServerRequest.ParsedSearchParams
      const route = yield* HttpRouter.RouteContext
      return yield* parameterProblem(error, endpoint, query, route.params)
    })
  }
)
