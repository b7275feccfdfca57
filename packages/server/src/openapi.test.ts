/**
 * The OpenAPI document served at /openapi.json: valid OpenAPI 3.1 (checked by an external
 * validator), derived from the same definition as the routes, and exact about what they accept.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Api, fromRecords, operationsOf } from "@equides/domain"
import { Validator } from "@seriousme/openapi-schema-validator"
import * as Effect from "effect/Effect"
import * as SchemaAST from "effect/SchemaAST"
import { HttpApi } from "effect/http-api"
import { FAMILY, SIRE } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const fetchDocument = Effect.map(call("/openapi.json"), (reply) => reply.json as Record<string, any>)

/** Query parameter names each route's schema accepts, by OpenAPI path and method. */
const acceptedQueryNames = (): Map<string, Array<string>> => {
  const out = new Map<string, Array<string>>()
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const ast = endpoint.query === undefined ? undefined : SchemaAST.toType(endpoint.query.ast)
      const names = ast !== undefined && SchemaAST.isObjects(ast) ? ast.propertySignatures.map((p) => String(p.name)) : []
      out.set(`${endpoint.method.toLowerCase()} ${path}`, names)
    }
  })
  return out
}

/** A value the parameter's documented schema admits. */
const sampleOf = (name: string, schema: Record<string, any>): string => {
  if (name === "q") return "jap"
  if (schema.type === "array") return sampleOf(name, schema.items)
  if (schema.enum !== undefined) return String(schema.enum[0])
  if (schema.default !== undefined) return String(schema.default)
  if (schema.type === "integer") return String(schema.minimum ?? 2000)
  return "a"
}

const concrete = (path: string): string => path.replace("{id}", SIRE).replace("{dimension}", "races")

layer(testServer(fromRecords(FAMILY)))("openapi", (it) => {
  it.effect("validates against the OpenAPI 3.1 schema", () =>
    Effect.gen(function*() {
      const doc = yield* fetchDocument
      const result = yield* Effect.promise(() => new Validator().validate(doc))
      assert.deepStrictEqual(result.errors, undefined)
      assert.isTrue(result.valid)
      assert.strictEqual(doc.openapi, "3.1.0")
    }))

  it.effect("states the quota rule, and each declared execution cost on its operation (x-cout-execution, units)", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      assert.include(document.info.description, "le plus grand de deux nombres d'unités")
      assert.include(document.info.description, "1 unité par 0,5 ms de calcul")
      const units = Object.fromEntries(
        Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
          item.get?.["x-cout-execution"] === undefined ? [] : [[path, item.get["x-cout-execution"]]]
        )
      )
      assert.deepStrictEqual(units, {
        "/v1/equides": 4,
        "/v1/equides/{id}/consanguinite": 1,
        "/v1/accouplements": 1,
        "/v1/accouplements/etalons": 10,
        "/v1/search": 2,
        "/v1/stats/repartition": 8,
        "/v1/equides/{id}/descendance/statistiques": 2,
        "/v1/equides/{id}/genetique": 1,
        "/v1/stats/genetique": 80,
        "/v1/stats/reproducteurs": 2
      })
    }))

  it.effect("documents exactly the query parameters each route's schema accepts", () =>
    Effect.gen(function*() {
      const doc = yield* fetchDocument
      // The HTML pages, served beside the API, admit no parameter.
      const accepted = new Map([...acceptedQueryNames(), ["get /documentation", []], ["get /documentation/reference", []]])
      const operations = operationsOf(doc)
      assert.strictEqual(operations.length, accepted.size)
      for (const { method, operation, path } of operations) {
        const documented = (operation.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name)
        assert.deepStrictEqual([...documented].sort(), [...(accepted.get(`${method} ${path}`) ?? ["?"])].sort(), path)
      }
    }))

  it.effect("every documented query parameter is accepted by its route, and no other", () =>
    Effect.gen(function*() {
      const doc = yield* fetchDocument
      for (const { operation, path } of operationsOf(doc)) {
        const base = concrete(path)
        const query = (operation.parameters ?? []).filter((p: any) => p.in === "query")
        const required = query.filter((p: any) => p.required).map((p: any) => `${p.name}=${sampleOf(p.name, p.schema)}`)
        for (const parameter of query) {
          const pairs = [...new Set([...required, `${parameter.name}=${encodeURIComponent(sampleOf(parameter.name, parameter.schema))}`])]
          const reply = yield* call(`${base}?${pairs.join("&")}`)
          const refusedAsUnknown = reply.status === 400 && /n'est pas admis par cette route/.test(reply.json?.detail ?? "")
          assert.isFalse(refusedAsUnknown, `${path} ${parameter.name}: ${reply.text}`)
        }
        const unknown = yield* call(`${base}?${[...required, "non_documente=1"].join("&")}`)
        assert.strictEqual(unknown.status, 400, path)
        assert.strictEqual(unknown.json.parametre, "non_documente", path)
      }
    }))

  describe("content", () => {
    it.effect("integer parameters are typed as integers, with their bounds and defaults", () =>
      Effect.gen(function*() {
        const doc = yield* fetchDocument
        const param = (path: string, name: string) =>
          doc.paths[path].get.parameters.find((p: any) => p.name === name).schema
        assert.deepStrictEqual(param("/v1/equides", "limite"), { type: "integer", minimum: 1, maximum: 100, default: 20 })
        assert.deepStrictEqual(param("/v1/equides", "offset"), { type: "integer", minimum: 0, maximum: 10000, default: 0 })
        assert.deepStrictEqual(param("/v1/equides/{id}/pedigree", "generations"), { type: "integer", minimum: 0, maximum: 8, default: 4 })
        assert.strictEqual(param("/v1/equides/{id}/descendance", "limite").type, "integer")
        assert.strictEqual(param("/v1/search", "limite").type, "integer")
        assert.strictEqual(param("/v1/stats/repartition", "limite").type, "integer")
        assert.strictEqual(param("/v1/equides", "annee_naissance").items.type, "integer")
        const q = doc.paths["/v1/search"].get.parameters.find((p: any) => p.name === "q")
        assert.isTrue(q.required)
      }))

    it.effect("every operation lists 304, 400, 429 and 503; every error is a problem (probes' 503 aside)", () =>
      Effect.gen(function*() {
        const doc = yield* fetchDocument
        for (const { operation, path } of operationsOf(doc)) {
          for (const status of ["200", "304", "400", "429", "503"]) {
            assert.property(operation.responses, status, `${path} ${status}`)
          }
          assert.property(operation.responses["429"].headers, "Retry-After")
          assert.property(operation.responses["503"].headers, "Retry-After")
          for (const [status, response] of Object.entries<any>(operation.responses)) {
            if (Number(status) < 400) continue
            const probe = (path === "/healthz" || path === "/readyz") && status === "503"
            assert.deepStrictEqual(Object.keys(response.content ?? {}), [probe ? "application/json" : "application/problem+json"], `${path} ${status}`)
          }
        }
        assert.property(doc.paths["/v1/equides/{id}"].get.responses, "404")
        const problem = doc.components.schemas.ProblemeParametreInvalide
        assert.includeMembers(problem.required, ["type", "title", "status", "detail"])
        assert.includeMembers(Object.keys(problem.properties), ["parametre", "indice", "documentation"])
      }))

    it.effect("path ids carry an example taken from the loaded data", () =>
      Effect.gen(function*() {
        const doc = yield* fetchDocument
        const id = doc.paths["/v1/equides/{id}"].get.parameters.find((p: any) => p.name === "id")
        assert.strictEqual(id.example, SIRE)
        assert.strictEqual((yield* call(`/v1/equides/${id.example}`)).status, 200)
      }))
  })
})
