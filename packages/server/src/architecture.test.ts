/**
 * The one direction inside the server (issue 26, docs/architecture.md): admission decides before
 * anything executes and reads no handler, pipeline, explorer or page module; the explorer renders
 * without the HttpApi's handlers and middleware; execution never reaches back into admission.
 * What several rooms share sits below them (the domain, `responseHeaders.ts`, `problems.ts`,
 * `pageRoutes.ts`, `own.ts`). Every non-test source file's relative imports are read and checked.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = dirname(fileURLToPath(import.meta.url))

/** A room: a folder under `src/`, or one of the page modules at its root. */
const PAGE_MODULES = ["documentation.ts", "reference.ts", "pages.ts"]

interface Rule {
  readonly from: string
  readonly forbidden: ReadonlyArray<string>
}

/** `from` and `forbidden` are folders (`admission/`) or root files (`pages.ts`). */
const RULES: ReadonlyArray<Rule> = [
  { from: "admission/", forbidden: ["handlers/", "pipeline/", "explorer/", ...PAGE_MODULES] },
  { from: "explorer/", forbidden: ["handlers/", "middleware/"] },
  { from: "execution/", forbidden: ["admission/"] }
]

const isTestFile = (file: string): boolean => /\.(test|fixture|golden|routes)\.ts$/.test(file) || file.startsWith("testing/")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [relative(ROOT, path)] : []
  })

/** The relative specifiers a file imports (static `import … from`, `export … from`, dynamic `import()`). */
const importsOf = (source: string): Array<string> => {
  const specifiers: Array<string> = []
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) specifiers.push(match[1])
  return specifiers.filter((specifier) => specifier.startsWith("."))
}

/** The room-relative path (`handlers/query.ts`) a file's relative import lands on. */
const target = (file: string, specifier: string): string => relative(ROOT, resolve(ROOT, dirname(file), specifier))

const within = (path: string, room: string): boolean => room.endsWith("/") ? path.startsWith(room) : path === room

/** Every import that breaks a rule, as `from → to`. */
const violations = (files: ReadonlyArray<{ readonly file: string; readonly source: string }>): Array<string> =>
  files.flatMap(({ file, source }) =>
    RULES.filter((rule) => within(file, rule.from)).flatMap((rule) =>
      importsOf(source)
        .map((specifier) => target(file, specifier))
        .filter((to) => rule.forbidden.some((room) => within(to, room)))
        .map((to) => `${file} → ${to}`)
    )
  )

describe("architecture", () => {
  const files = sourceFiles(ROOT).filter((file) => !isTestFile(file)).map((file) => ({ file, source: readFileSync(join(ROOT, file), "utf8") }))

  it("reads the rooms' files", () => {
    for (const room of ["admission/", "explorer/", "execution/"]) expect(files.some(({ file }) => file.startsWith(room))).toBe(true)
  })

  it("holds the one direction: admission, explorer and execution import nothing above them", () => {
    expect(violations(files)).toEqual([])
  })

  it("reports a forbidden import, static or dynamic, and lets an allowed one pass", () => {
    const broken = [
      { file: "admission/routes.ts", source: `import { x } from "../pages.ts"\nimport { y } from "./quota.ts"` },
      { file: "admission/answer.ts", source: `import type { Z } from "../explorer/paths.ts"` },
      { file: "explorer/query.ts", source: `import {\n  a\n} from "../middleware/validation.ts"` },
      { file: "execution/directLane.ts", source: `const m = await import("../admission/answer.ts")` },
      { file: "execution/work.ts", source: `export { w } from "../admission/quota.ts"` },
      { file: "handlers/query.ts", source: `import { JSON_TYPE } from "../admission/answer.ts"` },
      { file: "admission/Gatekeeper.ts", source: `import { ALLOW } from "../responseHeaders.ts"\nimport { Dataset } from "@equides/domain"` }
    ]
    expect(violations(broken)).toEqual([
      "admission/routes.ts → pages.ts",
      "admission/answer.ts → explorer/paths.ts",
      "explorer/query.ts → middleware/validation.ts",
      "execution/directLane.ts → admission/answer.ts",
      "execution/work.ts → admission/quota.ts"
    ])
  })
})
