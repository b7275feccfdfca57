import { describe, expect, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { completeDocument, operationsOf } from "./openapi.ts"

describe("the generated OpenAPI document", () => {
  const doc: Record<string, any> = OpenApi.fromApi(Api)

  it("lists 304, 429 and 503 (with Retry-After) on every operation, the two pages included", () => {
    const operations = operationsOf(doc)
    expect(operations.length).toBe(24)
    expect(operations.map(({ path }) => path)).toEqual(expect.arrayContaining(["/documentation", "/documentation/reference"]))
    for (const { operation, path } of operations) {
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(["200", "304", "400", "429", "503"]))
      expect(operation.responses["429"].headers["Retry-After"].$ref).toBe("#/components/headers/Retry-After")
    }
    expect(doc.components.headers["Retry-After"].schema.type).toBe("integer")
  })

  it("declares on every answer the headers the server writes on it", () => {
    for (const { operation, path } of operationsOf(doc)) {
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
        const throttled = status === "429" || status === "503"
        const expected = throttled
          ? ["Retry-After", "Cache-Control", "Vary", "RateLimit-Policy", "RateLimit"]
          : ["ETag", "Cache-Control", "Vary", "RateLimit-Policy", "RateLimit"]
        expect(Object.keys(response.headers).sort(), `${path} ${status}`).toStrictEqual(expected.sort())
      }
    }
  })

  it("names its servers, data licence and contact", () => {
    expect(doc.servers).toStrictEqual([{ url: "/", description: "L'origine qui sert ce document" }])
    expect(doc.info.license.url).toMatch(/^https:\/\/www\.etalab\.gouv\.fr\//)
    expect(doc.info.contact.name).toBeDefined()
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
