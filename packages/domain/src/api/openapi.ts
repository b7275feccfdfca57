/**
 * Post-processing of the generated OpenAPI document: what no schema carries. Every operation can
 * answer 304 (`If-None-Match` equal to the current ETag) and its 429 and 503 answers carry
 * `Retry-After`.
 */
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

/** Adds what every operation shares: 304, `Retry-After` on 429 and 503; completes problems. */
export const completeDocument = (input: Doc): Doc => {
  const doc = completeProblems(input)
  for (const { operation } of operationsOf(doc)) {
    const responses: Doc = operation.responses ?? (operation.responses = {})
    responses["304"] ??= NOT_MODIFIED
    for (const status of ["429", "503"]) {
      const response = responses[status]
      if (response !== undefined) response.headers = { ...response.headers, "retry-after": RETRY_AFTER }
    }
  }
  return doc
}
