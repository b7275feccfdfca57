/**
 * The contract, replayed: a corpus of requests (every route, valid and invalid parameters, every
 * status: 200, 304, 400, 404, 429, 503) against servers on port 0; each answer's status, content
 * type, body (JSON Schema 2020-12, ajv) and headers are checked against the served OpenAPI
 * document, and each request is judged by the document too: one it forbids must be refused, one
 * it allows must not be (save where the answer depends on the data: an unknown id or a value
 * absent from a reference list, which the document cannot enumerate).
 *
 * How the document is read, for what OpenAPI leaves to the reader: an integer parameter's text is
 * a JSON number (`5.0` is the integer 5), a repeatable parameter is repeated (`style: form`,
 * `explode: true`), and the parameters listed are the only ones admitted (the document says so).
 */
import { assert, describe, layer } from "@effect/vitest"
import { Api, fromRecords } from "@equides/domain"
import { OpenApi } from "effect/http-api"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { ABSENT, FAMILY, SIRE } from "./testing/family.ts"
import { call, type Reply, testServer } from "./testing/server.ts"

type Doc = Record<string, any>

/** An operation of the document and the path that reaches it. */
interface Operation {
  readonly template: string
  readonly matcher: RegExp
  readonly names: ReadonlyArray<string>
  readonly operation: Doc
}

/** Reads the document: a schema validator over its components and its operations. */
const readDocument = (doc: Doc) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...doc, $id: "openapi.json" })
  const validators = new Map<string, ReturnType<typeof ajv.compile>>()
  const validate = (schema: Doc, value: unknown): string | undefined => {
    const key = JSON.stringify(schema)
    let check = validators.get(key)
    if (check === undefined) {
      check = ajv.compile({ $id: `s${validators.size}`, ...rebase(schema) })
      validators.set(key, check)
    }
    return check(value) ? undefined : ajv.errorsText(check.errors)
  }
  const operations: Array<Operation> = Object.entries<Doc>(doc.paths).map(([template, item]) => {
    const names: Array<string> = []
    const pattern = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name)
      return "([^/]+)"
    })
    return { template, matcher: new RegExp(`^${pattern}$`), names, operation: item.get }
  })
  const find = (path: string) => {
    for (const op of operations) {
      const match = op.matcher.exec(path)
      if (match !== null) return { op, values: Object.fromEntries(op.names.map((name, i) => [name, decodeURIComponent(match[i + 1])])) }
    }
    return undefined
  }
  return { validate, find, doc }
}

type Reader = ReturnType<typeof readDocument>

/** `$ref`s of the document, made absolute (the fragment's schemas are compiled apart). */
const rebase = (schema: Doc): Doc => JSON.parse(JSON.stringify(schema).replaceAll("\"#/components/", "\"openapi.json#/components/"))

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/

/** A query value as the document's schema reads it (an integer as a JSON number, nothing around). */
const typed = (schema: Doc, text: string): unknown =>
  (schema.type === "integer" || schema.type === "number") && JSON_NUMBER.test(text) ? Number(text) : text

/** Why the document forbids this request, or undefined when it allows it. */
const forbiddenBy = (reader: Reader, url: string): string | undefined => {
  const [path, search = ""] = url.split("?", 2) as [string, string?]
  const found = reader.find(path)
  if (found === undefined) return `no operation at ${path}`
  const parameters: Array<Doc> = found.op.operation.parameters ?? []
  const pairs = [...new URLSearchParams(search)]
  for (const [name] of pairs) {
    if (!parameters.some((p) => p.in === "query" && p.name === name)) return `unknown parameter ${name}`
  }
  for (const parameter of parameters) {
    const texts = parameter.in === "path"
      ? [found.values[parameter.name] as string]
      : pairs.filter(([name]) => name === parameter.name).map(([, value]) => value)
    if (texts.length === 0) {
      if (parameter.required === true) return `missing ${parameter.name}`
      continue
    }
    const schema: Doc = parameter.schema
    const value = schema.type === "array" ? texts.map((text) => typed(schema.items, text)) : texts.length === 1 ? typed(schema, texts[0]) : texts
    const error = reader.validate(schema, value)
    if (error !== undefined) return `${parameter.name}: ${error}`
  }
  return undefined
}

/** Headers the contract declares; the server writes them on every answer it lists them for. */
const CONTRACT_HEADERS = ["etag", "cache-control", "vary", "retry-after"]
const QUOTA_HEADERS = ["ratelimit", "ratelimit-policy"]

/** Every way the answer departs from the document (empty when it conforms). */
const departures = (reader: Reader, method: string, url: string, reply: Reply): Array<string> => {
  const path = url.split("?", 1)[0]
  const found = reader.find(path)
  if (found === undefined) return reply.status === 404 ? [] : [`${url}: ${reply.status} where no operation is`]
  const response: Doc | undefined = found.op.operation.responses[String(reply.status)]
  if (response === undefined) return [`${url}: status ${reply.status} not documented`]
  const out: Array<string> = []
  const declared = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase())
  for (const name of CONTRACT_HEADERS) {
    if (declared.includes(name) !== (reply.headers[name] !== undefined)) {
      out.push(`${url} ${reply.status}: header ${name} ${declared.includes(name) ? "declared but absent" : "present but not declared"}`)
    }
  }
  for (const name of QUOTA_HEADERS) {
    if (reply.headers[name] !== undefined && !declared.includes(name)) out.push(`${url} ${reply.status}: header ${name} not declared`)
  }
  for (const [name, header] of Object.entries<Doc>(response.headers ?? {})) {
    const value = reply.headers[name.toLowerCase()]
    const schema = header.$ref === undefined ? header.schema : reader.doc.components.headers[header.$ref.split("/").pop()].schema
    if (value !== undefined) {
      const error = reader.validate(schema, typed(schema, value))
      if (error !== undefined) out.push(`${url} ${reply.status}: header ${name}: ${error}`)
    }
  }
  if (reply.status === 304 || method === "HEAD") {
    if (reply.text !== "") out.push(`${url} ${reply.status}: a body on ${method} ${reply.status}`)
    return out
  }
  const contentType = (reply.headers["content-type"] ?? "").split(";")[0]
  const media: Doc | undefined = response.content?.[contentType]
  if (media === undefined) return [...out, `${url} ${reply.status}: content type ${contentType} not documented`]
  // JSON and its `+json` types; NDJSON (`application/x-ndjson`, the exports) is lines of JSON: text.
  const body = contentType === "application/json" || contentType.endsWith("+json") ? reply.json : reply.text
  const error = reader.validate(media.schema, body)
  if (error !== undefined) out.push(`${url} ${reply.status}: body: ${error}`)
  return out
}

/** Requests built from the document: every operation with its examples, then invalid variants. */
const corpusOf = (doc: Doc): Array<string> => {
  const out: Array<string> = []
  for (const [template, item] of Object.entries<Doc>(doc.paths)) {
    const parameters: Array<Doc> = item.get.parameters ?? []
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(parameters.find((p) => p.name === name)?.example)))
    const query = parameters.filter((p) => p.in === "query")
    const pair = (p: Doc, value: unknown) => `${p.name}=${encodeURIComponent(String(value))}`
    const pairsOf = (p: Doc): Array<string> => Array.isArray(p.example) ? p.example.map((v: unknown) => pair(p, v)) : [pair(p, p.example)]
    const required = query.filter((p) => p.required === true).flatMap(pairsOf)
    const url = (...pairs: ReadonlyArray<string>) => {
      const all = [...new Set([...required, ...pairs])]
      return all.length === 0 ? path : `${path}?${all.join("&")}`
    }
    out.push(url(), url("inconnu=1"))
    for (const p of query) {
      out.push(url(...pairsOf(p)))
      if (p.required === true) out.push(`${path}?${required.filter((r) => !r.startsWith(`${p.name}=`)).join("&")}`)
      const schema: Doc = p.schema.type === "array" ? p.schema.items : p.schema
      if (schema.type === "integer") {
        out.push(url(pair(p, "x")), url(pair(p, "1.5")), url(pair(p, "5.0")))
        if (schema.maximum !== undefined) out.push(url(pair(p, schema.maximum + 1)))
        if (schema.minimum !== undefined) out.push(url(pair(p, schema.minimum - 1)))
        else out.push(url(pair(p, -1)))
      } else if (schema.enum !== undefined || schema.pattern !== undefined) {
        out.push(url(pair(p, "zzz")))
      } else {
        out.push(url(pair(p, "")), url(pair(p, "valeur-absente-des-donnees")))
      }
      if (p.schema.type !== "array") out.push(url(...pairsOf(p), ...pairsOf(p).map((x) => `${x}&${x}`)))
    }
    if (template.includes("{")) {
      out.push(template.replace(/\{(\w+)\}/g, "mal-forme"))
    }
  }
  return out
}

/** The findings of issue 13, each with what the document says of it. */
const FINDINGS: ReadonlyArray<readonly [string, "allowed" | "forbidden"]> = [
  ["/v1/equides?sexe=femelle", "allowed"],
  ["/v1/equides?sexe=Femelle,Male", "allowed"],
  ["/v1/equides?sexe=M%C3%A2le", "allowed"],
  ["/v1/equides?sexe=INDE%CC%81TER,f%C3%A9melle", "allowed"],
  ["/v1/equides?sexe=male&sexe=F%C3%A9melle", "allowed"],
  ["/v1/equides?sexe=male&sexe=jument", "forbidden"],
  ["/v1/equides?sexe=M%E1%BA%BDle", "forbidden"],
  ["/v1/equides?annee_naissance=2000,2001", "forbidden"],
  ["/v1/equides?annee_naissance=2000&annee_naissance=2001", "allowed"],
  ["/v1/equides?avec_performances=NON", "forbidden"],
  ["/v1/equides?avec_performances=non", "allowed"],
  ["/v1/equides?limite=5.0", "allowed"],
  ["/v1/equides?limite=5e0", "allowed"],
  ["/v1/equides?limite=05", "forbidden"],
  ["/v1/search?q=%20", "forbidden"],
  ["/v1/stats/", "forbidden"],
  ["/v1/equides/", "forbidden"]
]

/** Answers the document allows but the data decides on: an unknown id, a value no reference list holds. */
const dataDependent = (url: string, reply: Reply): boolean =>
  (reply.status === 404 && reply.json?.type === "/documentation#erreur-introuvable") ||
  (reply.status === 400 && url.includes("valeur-absente-des-donnees"))

const fetchReader = Effect.map(call("/openapi.json"), (reply) => readDocument(reply.json as Doc))

/** The document without examples, as the definition gives it: for servers whose `/openapi.json` is refused. */
const definitionReader = () => readDocument(OpenApi.fromApi(Api))

/** Replays `urls` (GET, then HEAD and a revalidation of each 200); every departure from the document. */
const replay = (reader: Reader, urls: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const problems: Array<string> = []
    const seen = new Set<number>()
    for (const url of urls) {
      const reply = yield* call(url)
      seen.add(reply.status)
      problems.push(...departures(reader, "GET", url, reply))
      const forbidden = forbiddenBy(reader, url)
      if (forbidden !== undefined && reply.status < 400) problems.push(`${url}: answered ${reply.status} though the document forbids it (${forbidden})`)
      // 429 and 503 are not judgements on the request (quota, capacity, no data).
      const refused = reply.status >= 400 && reply.status !== 429 && reply.status !== 503
      if (forbidden === undefined && refused && !dataDependent(url, reply)) {
        problems.push(`${url}: refused ${reply.status} though the document allows it: ${reply.text}`)
      }
      if (reply.status === 200) {
        const head = yield* call(url, { method: "HEAD" })
        problems.push(...departures(reader, "HEAD", url, head))
        const revalidated = yield* call(url, { headers: { "if-none-match": reply.headers["etag"] ?? "" } })
        seen.add(revalidated.status)
        problems.push(...departures(reader, "GET", url, revalidated))
        if (revalidated.status !== 304) problems.push(`${url}: revalidation answered ${revalidated.status}`)
      }
    }
    return { problems, seen }
  })

describe("contract", () => {
  layer(testServer(fromRecords(FAMILY)))("with data", (it) => {
    it.effect("every answer to the corpus conforms to the document, and the document judges every request as the server does", () =>
      Effect.gen(function*() {
        const reader = yield* fetchReader
        const corpus = [...corpusOf(reader.doc), ...FINDINGS.map(([url]) => url), `/v1/equides/${ABSENT}`, `/v1/equides/${SIRE}/pedigree?generations=9`]
        const { problems, seen } = yield* replay(reader, corpus)
        assert.deepStrictEqual(problems, [])
        assert.includeMembers([...seen], [200, 304, 400, 404])
        assert.isAbove(corpus.length, 150)
      }), { timeout: 60_000 })

    it.effect("says of each of the issue's findings what the server does", () =>
      Effect.gen(function*() {
        const reader = yield* fetchReader
        for (const [url, verdict] of FINDINGS) {
          assert.strictEqual(forbiddenBy(reader, url) === undefined ? "allowed" : "forbidden", verdict, url)
          const reply = yield* call(url)
          assert.strictEqual(reply.status < 400 ? "allowed" : "forbidden", verdict, `${url}: ${reply.status}`)
        }
      }))

    it.effect("an integer parameter: the document admits a text exactly when the server does", () =>
      Effect.gen(function*() {
        const reader = yield* fetchReader
        const texts = fc.stringMatching(/^[-+ 0-9.eE]{0,7}$/)
        const samples = fc.sample(texts, { numRuns: 150, seed: 13 })
        for (const text of [...samples, "5.0", "1e1", "0.5e1", "-0", "100", "100.0", "1e2", "101"]) {
          const url = `/v1/equides?limite=${encodeURIComponent(text)}`
          const allowed = forbiddenBy(reader, url) === undefined
          const reply = yield* call(url)
          assert.strictEqual(reply.status === 200, allowed, `limite=${JSON.stringify(text)}: ${reply.status}`)
        }
      }), { timeout: 60_000 })
  })

  layer(testServer(fromRecords(FAMILY), { settings: { rateLimitRate: 1, rateLimitBurst: 2 } }))("with a quota", (it) => {
    it.effect("429 conforms, RateLimit headers declared", () =>
      Effect.gen(function*() {
        const reader = definitionReader()
        const urls = ["/v1/meta", "/v1/stats", "/v1/equides", "/v1/stats/repartition"]
        const { problems, seen } = yield* replay(reader, urls)
        assert.deepStrictEqual(problems.filter((p) => !p.includes("revalidation answered 429")), [])
        assert.isTrue(seen.has(429))
      }))
  })

  layer(testServer(fromRecords([])))("without data", (it) => {
    it.effect("503 conforms on data routes and probes", () =>
      Effect.gen(function*() {
        const reader = definitionReader()
        const urls = ["/healthz", "/readyz", "/v1/meta", "/v1/equides", `/v1/equides/${SIRE}`, "/v1/search?q=a", "/v1/stats"]
        const { problems, seen } = yield* replay(reader, urls)
        assert.deepStrictEqual(problems, [])
        assert.deepStrictEqual([...seen], [503])
      }))
  })
})
