/**
 * The API's version follows the changelog: the newest released version of `CHANGELOG.md` is
 * `API_VERSION` (discovery, probes, meta, the OpenAPI document) and the version of every package.
 */
import { describe, expect, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Api } from "../api/Api.ts"
import { API_VERSION } from "./meta.ts"

const ROOT = join(import.meta.dirname, "../../../..")
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8")

describe("version", () => {
  const changelog = read("CHANGELOG.md")
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((match) => match[1])

  it("the changelog keeps an Unreleased section above its releases", () => {
    expect(changelog.indexOf("## [Unreleased]")).toBeGreaterThan(0)
    expect(changelog.indexOf("## [Unreleased]")).toBeLessThan(changelog.indexOf(`## [${released[0]}]`))
  })

  it("is the newest release of the changelog, in the API, its document and every package", () => {
    expect(API_VERSION).toBe(released[0])
    expect(OpenApi.fromApi(Api).info.version).toBe(released[0])
    for (const manifest of ["package.json", "packages/domain/package.json", "packages/ingest/package.json", "packages/server/package.json"]) {
      expect(JSON.parse(read(manifest)).version, manifest).toBe(released[0])
    }
  })
})
