/**
 * Post-processing of the generated OpenAPI document: what no schema carries. Every operation can
 * answer 304 (`If-None-Match` equal to the current ETag); every answer declares the headers the
 * server writes on it (caching, quota, `Retry-After` on 429 and 503); the HTML pages for people,
 * served beside the API, are described too; `info.contact`.
 */
import { DOCUMENTATION_PATH } from "./problems.ts"
import type { JsonSchemaFragment } from "./params.ts"

type Doc = Record<string, any>

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

const RETRY_AFTER: JsonSchemaFragment = {
  description: "Délai d'attente avant de réessayer, en secondes",
  schema: { type: "integer", minimum: 1 }
}

const NOT_MODIFIED: JsonSchemaFragment = {
  description: "Non modifié : If-None-Match égal à l'ETag courant ; pas de corps, rien n'est recalculé"
}

/** The path of the interactive reference (an OpenAPI viewer over this document). */
export const REFERENCE_PATH = `${DOCUMENTATION_PATH}/reference` as const

const header = (description: string, schema: JsonSchemaFragment = { type: "string" }): JsonSchemaFragment => ({ description, schema })

/** Headers declared once (`components.headers`), referred to from every answer. */
const HEADERS: Readonly<Record<string, JsonSchemaFragment>> = {
  ETag: header("Validateur fort de la représentation (empreinte du jeu de données, URI, codage négocié) ; à renvoyer dans If-None-Match"),
  "Cache-Control": header("public, max-age=3600, stale-while-revalidate=86400 ; no-store sur 429 et 503", {
    type: "string",
    examples: ["public, max-age=3600, stale-while-revalidate=86400"]
  }),
  Vary: header("Accept-Encoding (et Accept sur GET /)"),
  "RateLimit-Policy": header("Politique du quota par adresse (brouillon IETF httpapi), quand un quota s'applique", {
    type: "string",
    examples: ["\"default\";q=200;w=4"]
  }),
  RateLimit: header("État du quota de l'adresse appelante (brouillon IETF httpapi), quand un quota s'applique", {
    type: "string",
    examples: ["\"default\";r=199;t=1"]
  }),
  "Retry-After": RETRY_AFTER
}

const ref = (name: string): JsonSchemaFragment => ({ $ref: `#/components/headers/${name}` })

/** The headers of an answer with this status. */
const headersOf = (status: string): Record<string, JsonSchemaFragment> => {
  const throttled = status === "429" || status === "503"
  const names = throttled
    ? ["Retry-After", "Cache-Control", "Vary", "RateLimit-Policy", "RateLimit"]
    : ["ETag", "Cache-Control", "Vary", "RateLimit-Policy", "RateLimit"]
  return Object.fromEntries(names.map((name) => [name, ref(name)]))
}

const PROBLEM_JSON = (schema: string): JsonSchemaFragment => ({
  "application/problem+json": { schema: { $ref: `#/components/schemas/Probleme${schema}` } }
})

/** An HTML page served beside the API; like every route it refuses any query parameter. */
const page = (operationId: string, summary: string, description: string): JsonSchemaFragment => ({
  get: {
    tags: ["documentation"],
    operationId,
    summary,
    description,
    parameters: [],
    security: [],
    responses: {
      "200": { description: "Page HTML (français)", content: { "text/html": { schema: { type: "string" } } } },
      "400": { description: "Un paramètre de requête, quel qu'il soit, est refusé", content: PROBLEM_JSON("ParametreInvalide") },
      "429": { description: "Quota épuisé", content: PROBLEM_JSON("TropDeRequetes") },
      "503": { description: "Service saturé", content: PROBLEM_JSON("ServiceSurcharge") }
    }
  }
})

const PAGES: Readonly<Record<string, JsonSchemaFragment>> = {
  [DOCUMENTATION_PATH]: page(
    "documentation",
    "Documentation pour les personnes",
    "Guide de l'API, exemple curl exécutable et extrait de la réponse réelle pour chaque route (tirés des données chargées), une section ancrée par type de problème (cibles des type relatifs des erreurs)."
  ),
  [REFERENCE_PATH]: page(
    "reference",
    "Référence interactive",
    "Visionneuse OpenAPI (Swagger UI, servie par l'API elle-même, sans ressource tierce) de ce document, avec « Try it out » vers la même origine."
  )
}

/** Each operation of the document, with its path and method. */
export const operationsOf = (doc: Doc): Array<{ readonly path: string; readonly method: string; readonly operation: Doc }> => {
  const out: Array<{ path: string; method: string; operation: Doc }> = []
  for (const [path, item] of Object.entries<Doc>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method]
      if (operation !== undefined) out.push({ path, method, operation })
    }
  }
  return out
}

/**
 * Problem components: named without the generator's `Encoded` suffix, with the members RFC 9457
 * and the spec require (`type`, `title`, `status`, `detail`; the generator marks only `type`,
 * since `title` and `status` decode to their fixed value when missing) and `status` an integer.
 */
const completeProblems = (doc: Doc): Doc => {
  const schemas: Doc = doc.components?.schemas ?? {}
  const renames = new Map<string, string>()
  for (const [name, schema] of Object.entries<Doc>(schemas)) {
    const type = schema.properties?.type?.enum?.[0]
    if (typeof type !== "string" || !type.startsWith("/documentation#")) continue
    schema.required = ["type", "title", "status", "detail"]
    schema.properties.status = { ...schema.properties.status, type: "integer" }
    if (name.endsWith("Encoded")) renames.set(name, name.slice(0, -"Encoded".length))
  }
  if (renames.size === 0) return doc
  let text = JSON.stringify(doc)
  for (const [from, to] of renames) {
    text = text.replaceAll(`"#/components/schemas/${from}"`, `"#/components/schemas/${to}"`)
  }
  const out = JSON.parse(text) as Doc
  for (const [from, to] of renames) {
    out.components.schemas[to] = out.components.schemas[from]
    delete out.components.schemas[from]
  }
  return out
}

/**
 * Adds what every operation shares: 304, the headers of each answer, the pages; completes
 * problems and `info`.
 */
export const completeDocument = (input: Doc): Doc => {
  const doc = completeProblems(input)
  doc.info = {
    ...doc.info,
    // The service publishes no address of its own: its contact is its documentation.
    contact: { name: "Équidés API : voir /documentation" }
  }
  doc.paths = { ...doc.paths, ...structuredClone(PAGES) }
  const tags: Array<Doc> = doc.tags ?? []
  if (!tags.some((tag) => tag.name === "documentation")) doc.tags = [...tags, { name: "documentation", description: "Pages pour les personnes (HTML)" }]
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, ...HEADERS } }
  for (const { operation } of operationsOf(doc)) {
    const responses: Doc = operation.responses ?? (operation.responses = {})
    responses["304"] ??= { ...NOT_MODIFIED }
    for (const [status, response] of Object.entries<Doc>(responses)) {
      response.headers = { ...response.headers, ...headersOf(status) }
    }
  }
  return doc
}
