/**
 * Issue 26 item 1: the export lane's routes follow from their definitions (the family their
 * executions run under), and they are exactly the routes whose answer is a file (neither JSON
 * nor an HTML page) in the description.
 */
import { assert, describe, it } from "@effect/vitest"
import { Api } from "@equides/domain"
import { OpenApi } from "effect/http-api"
import { EXPORT_ROUTES, isExportRoute } from "./exportLane.ts"

interface Operation {
  readonly responses?: Readonly<Record<string, { readonly content?: Readonly<Record<string, unknown>> }>>
}

describe("the export lane's routes", () => {
  it("are the routes whose 200 is a file (neither JSON nor a page), by template, each with its kind", () => {
    const paths = OpenApi.fromApi(Api).paths as Readonly<Record<string, { readonly get?: Operation }>>
    const files = Object.entries(paths)
      .filter(([, item]) => Object.keys(item.get?.responses?.["200"]?.content ?? {}).every((type) => !/^(application\/json|text\/html)/.test(type)))
      .map(([path]) => path)
    assert.deepStrictEqual(files, ["/v1/export/equides", "/v1/export/equides.parquet"])
    assert.deepStrictEqual([...EXPORT_ROUTES], [["/v1/export/equides", "rows"], ["/v1/export/equides.parquet", "parquet"]])
    assert.isTrue(isExportRoute("/v1/export/equides.parquet"))
    assert.isFalse(isExportRoute("/v1/equides"))
    assert.isFalse(isExportRoute(undefined))
  })
})
