import { describe, expect, it } from "@effect/vitest"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { HttpApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { listQuery } from "./equides.ts"
import { clamp, IntFromString, NoQuery, paramDocsOf } from "./params.ts"

const decodeInt = Schema.decodeUnknownExit(IntFromString)

describe("IntFromString", () => {
  it("reads a JSON number whose value is a safe integer (what the document's type: integer admits)", () => {
    expect(decodeInt("42")).toStrictEqual(Exit.succeed(42))
    expect(decodeInt("-7")).toStrictEqual(Exit.succeed(-7))
    expect(decodeInt("5.0")).toStrictEqual(Exit.succeed(5))
    expect(decodeInt("1e2")).toStrictEqual(Exit.succeed(100))
    expect(decodeInt("0.5e1")).toStrictEqual(Exit.succeed(5))
    for (const text of ["", " 1", "1 ", "+1", "007", "1.5", "1e-1", "0x10", "abc", "1.", ".5", "12345678901234567", "9007199254740993"]) {
      expect(Exit.isFailure(decodeInt(text)), text).toBe(true)
    }
  })
})

describe("clamp", () => {
  it("brings a value back into the bounds", () => {
    expect(clamp(0, 1, 100)).toBe(1)
    expect(clamp(500, 1, 100)).toBe(100)
    expect(clamp(42, 1, 100)).toBe(42)
  })
})

describe("NoQuery", () => {
  it("refuses every key (an empty struct would accept any object)", () => {
    const decode = Schema.decodeUnknownExit(NoQuery)
    expect(Exit.isSuccess(decode({}))).toBe(true)
    expect(Exit.isFailure(decode({ x: "1" }))).toBe(true)
    expect(Exit.isSuccess(Schema.decodeUnknownExit(Schema.Struct({}))({ x: "1" }, { onExcessProperty: "error" }))).toBe(true)
  })
})

describe("endpoint parameters", () => {
  const endpoints: Array<{ readonly name: string; readonly query: Schema.Top | undefined; readonly docs: ReturnType<typeof paramDocsOf> }> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => endpoints.push({ name: `${endpoint.method} ${endpoint.path}`, query: endpoint.query, docs: paramDocsOf(endpoint.annotations) })
  })

  it("every endpoint has a query schema, so that an unknown parameter is refused everywhere", () => {
    expect(endpoints.length).toBe(22)
    for (const { name, query } of endpoints) {
      expect(query, name).toBeDefined()
      const decode = Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(query!) as Schema.Codec<unknown, unknown>)
      expect(Exit.isFailure(decode({ inconnu: "1" }, { onExcessProperty: "error" })), name).toBe(true)
    }
  })

  it("documents exactly the query parameters each schema declares", () => {
    for (const { docs, name, query } of endpoints) {
      const ast = SchemaAST.toType(query!.ast)
      const declared = SchemaAST.isObjects(ast) ? ast.propertySignatures.map((p) => String(p.name)) : []
      expect(docs.filter((d) => d.in === "query").map((d) => d.name).sort(), name).toStrictEqual(declared.sort())
    }
  })
})

describe("the list's parameters", () => {
  // Spec, Conditions and Limits: limite 1..100 and offset ≤ 10000 are refused outside their
  // bounds on /v1/equides; tri is one of the documented orders. The schema alone says so.
  const decode = Schema.decodeUnknownExit(Schema.Struct(listQuery.fields))
  it("admits the bounds and the documented orders", () => {
    for (const query of [{ limite: "1" }, { limite: "100" }, { offset: "0" }, { offset: "10000" }, { tri: "-annee" }, { tri: "naturel" }]) {
      expect(Exit.isSuccess(decode(query)), JSON.stringify(query)).toBe(true)
    }
  })
  it("refuses what lies outside them", () => {
    for (const query of [{ limite: "0" }, { limite: "101" }, { limite: "2.5" }, { offset: "10001" }, { offset: "-1" }, { tri: "name" }, { tri: "" }]) {
      expect(Exit.isFailure(decode(query)), JSON.stringify(query)).toBe(true)
    }
  })
})
