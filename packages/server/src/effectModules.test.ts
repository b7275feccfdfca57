/**
 * Effect is imported module by module (`effect/Schema`), never through its index (`effect`): the
 * index loads every module of the package, and each query worker and the server's thread load the
 * code they import while the server starts (design 5). The domain's import took 0.71 s through the
 * index and 0.42–0.52 s module by module on this machine (`docs/decisions.md`).
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const THIS_FILE = fileURLToPath(import.meta.url)
const REPOSITORY = join(dirname(THIS_FILE), "..", "..", "..")
const SOURCES = ["packages/domain/src", "packages/ingest/src", "packages/server/src", "bench"]

const typeScriptFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "cache" ? [] : typeScriptFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** Where a source imports Effect's index, statically or dynamically. */
const indexImports = (source: string): number =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["']effect["']/g)].length

describe("Effect's modules", () => {
  it("recognises an import of the index, and not of a module", () => {
    expect(indexImports(`import { Schema } from "effect"`)).toBe(1)
    expect(indexImports(`const { Effect } = await import("effect")`)).toBe(1)
    expect(indexImports(`import * as Schema from "effect/Schema"\nimport type * as Fiber from "effect/Fiber"`)).toBe(0)
  })

  it("are imported one by one everywhere, never through the package's index", () => {
    const offenders = SOURCES.flatMap((folder) => typeScriptFiles(join(REPOSITORY, folder)))
      // This file's own examples aside.
      .filter((file) => file !== THIS_FILE && indexImports(readFileSync(file, "utf8")) > 0)
      .map((file) => relative(REPOSITORY, file))
    expect(offenders).toEqual([])
  })
})
