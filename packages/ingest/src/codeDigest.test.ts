import { afterAll, describe, expect, it } from "@effect/vitest"
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { codeDigest } from "./codeDigest.ts"

const scratch = mkdtempSync(join(tmpdir(), "equides-digest-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let trees = 0

/** A small repository: two packages' sources, with a test, a test helper and a fixture. */
const tree = (files: Readonly<Record<string, string>>): URL => {
  const root = join(scratch, `tree-${++trees}`)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return pathToFileURL(`${root}/`)
}

const FILES = {
  "a/src/body.ts": "export const body = (n: number) => `{\"n\":${n}}`\n",
  "a/src/deep/fold.ts": "export const fold = (s: string) => s.toLowerCase()\n",
  "a/src/body.test.ts": "// a test\n",
  "a/src/testing/helper.ts": "export const helper = 1\n",
  "b/src/testing.ts": "export const helper = 1\n",
  "a/src/fixtures/sample.jsonl": "{}\n",
  "b/src/main.ts": "import './x.ts'\n",
  "lock.json": "{\"lockfileVersion\":3}\n"
}
const PATHS = ["a/src", "b/src", "lock.json"]

describe("codeDigest", () => {
  it("is a SHA-256 that one byte of one source changes", () => {
    const base = codeDigest(tree(FILES), PATHS)
    expect(base).toMatch(/^[0-9a-f]{64}$/)
    expect(codeDigest(tree(FILES), PATHS)).toBe(base)
    expect(codeDigest(tree({ ...FILES, "a/src/body.ts": FILES["a/src/body.ts"].replace("number", "numbeR") }), PATHS)).not.toBe(base)
    expect(codeDigest(tree({ ...FILES, "a/src/deep/fold.ts": `${FILES["a/src/deep/fold.ts"]} ` }), PATHS)).not.toBe(base)
    expect(codeDigest(tree({ ...FILES, "lock.json": "{\"lockfileVersion\":2}\n" }), PATHS)).not.toBe(base)
    // A file added, or one renamed with the same bytes: another build.
    expect(codeDigest(tree({ ...FILES, "b/src/new.ts": "" }), PATHS)).not.toBe(base)
    const { "a/src/deep/fold.ts": fold, ...rest } = FILES
    expect(codeDigest(tree({ ...rest, "a/src/deep/fold2.ts": fold }), PATHS)).not.toBe(base)
  })

  it("leaves out tests, test helpers and fixtures, which never shape what is served", () => {
    const base = codeDigest(tree(FILES), PATHS)
    const changed = {
      ...FILES,
      "a/src/body.test.ts": "// another test\n",
      "a/src/testing/helper.ts": "export const helper = 2\n",
      "b/src/testing.ts": "export const helper = 2\n",
      "a/src/fixtures/sample.jsonl": "{\"a\":1}\n",
      "b/src/main.test.ts": "// new\n"
    }
    expect(codeDigest(tree(changed), PATHS)).toBe(base)
  })

  it("is the same wherever the repository is checked out (replicas of one release agree)", () => {
    const first = tree(FILES)
    const moved = join(scratch, "elsewhere", "checkout")
    cpSync(first, moved, { recursive: true })
    expect(codeDigest(pathToFileURL(`${moved}/`), PATHS)).toBe(codeDigest(first, PATHS))
  })

  it("refuses a path that does not exist rather than leave code out", () => {
    expect(() => codeDigest(tree(FILES), [...PATHS, "c/src"])).toThrow(/ENOENT/)
  })
})
