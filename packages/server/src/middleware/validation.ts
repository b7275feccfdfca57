/**
 * `Validation`: a request whose parameters fail decoding becomes a 400
 * `#erreur-parametre-invalide` naming the parameter. An unknown query parameter gets the nearest
 * admitted name and the admitted list as `indice`; a refused value gets what is expected.
 */
import {
  admittedValuesHint,
  type ParamDoc,
  paramDocsOf,
  ParametreInvalide,
  quote,
  unknownParameterHint,
  Validation
} from "@equides/domain"
import { Effect, Layer, SchemaIssue } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { type HttpApiEndpoint, HttpApiError, HttpApiMiddleware } from "effect/http-api"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const UNKNOWN = "Expected no excess property"
const MISSING = "Missing key"

/** The names a route admits in its query string, in declaration order. */
const admittedQueryNames = (docs: ReadonlyArray<ParamDoc>): Array<string> =>
  docs.filter((doc) => doc.in === "query").map((doc) => doc.name)

const refusedValue = (
  name: string,
  raw: string | ReadonlyArray<string> | undefined,
  doc: ParamDoc | undefined
): ParametreInvalide => {
  const indice = doc?.values !== undefined
    ? admittedValuesHint(doc.values)
    : doc !== undefined
    ? `attendu : ${doc.expected}`
    : undefined
  const detail = Array.isArray(raw)
    ? `Le paramètre ${name} ne peut figurer qu'une fois dans la requête.`
    : raw === undefined || raw === ""
    ? `Une valeur vide n'est pas admise pour ${name}.`
    : `La valeur ${quote(String(raw))} n'est pas admise pour ${name}${doc === undefined ? "" : ` (attendu : ${doc.expected})`}.`
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
  const issue = formatIssues(schemaIssue).issues[0]
  const segment = issue?.path?.[0]
  const name = segment === undefined ? "" : String(typeof segment === "object" ? segment.key : segment)
  if (issue === undefined) {
    return new ParametreInvalide({ detail: "Les paramètres de la requête ne sont pas admis par cette route." })
  }
  if (name === "") {
    return new ParametreInvalide({
      detail: "Un paramètre sans nom n'est pas admis.",
      parametre: "",
      indice: unknownParameterHint("", admittedQueryNames(docs))
    })
  }
  const admitted = admittedQueryNames(docs)
  // Unknown: refused as an excess property, or by the `never` values of a route admitting none.
  if (issue.message === UNKNOWN || (location === "query" && !admitted.includes(name))) {
    return new ParametreInvalide({
      detail: `Le paramètre ${name} n'est pas admis par cette route.`,
      parametre: name,
      indice: unknownParameterHint(name, admitted)
    })
  }
  const doc = docs.find((d) => d.name === name && d.in === location)
  if (issue.message === MISSING) {
    return new ParametreInvalide({
      detail: `Le paramètre ${name} est obligatoire.`,
      parametre: name,
      ...(doc === undefined ? {} : { indice: `attendu : ${doc.expected}` })
    })
  }
  return refusedValue(name, location === "path" ? params[name] : query[name], doc)
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
