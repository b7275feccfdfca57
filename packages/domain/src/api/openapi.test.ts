import { describe, expect, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { completeDocument, operationsOf } from "./openapi.ts"

describe("the generated OpenAPI document", () => {
  const doc: Record<string, any> = OpenApi.fromApi(Api)

  it("lists 304, 429 and 503 (with Retry-After) on every operation", () => {
    const operations = operationsOf(doc)
    expect(operations.length).toBe(15)
    for (const { operation, path } of operations) {
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(["200", "304", "400", "429", "503"]))
      expect(operation.responses["429"].headers["retry-after"].schema.type).toBe("integer")
    }
  })

  it("names problem components without the Encoded suffix and requires the RFC 9457 members", () => {
    const schemas = doc.components.schemas
    for (const name of ["ProblemeParametreInvalide", "ProblemeIntrouvable", "ProblemeTropDeRequetes", "ProblemeServiceSurcharge"]) {
      expect(schemas[name], name).toBeDefined()
      expect(schemas[name].required).toStrictEqual(["type", "title", "status", "detail"])
      expect(schemas[name].properties.status.type).toBe("integer")
    }
    expect(JSON.stringify(doc)).not.toContain("Encoded\"")
  })

  it("is idempotent", () => {
    expect(completeDocument(structuredClone(doc))).toStrictEqual(doc)
  })
})
