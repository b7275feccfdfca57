import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { generateExtract } from "./generate/generateExtract.ts"
import { serializeExtract } from "./generate/writeExtract.ts"
import { temporaryDirectory } from "./source/testing.ts"

const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url))
const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

// The test runner's own Node (24) strips the types of cli.ts as `npm run ingest` does. Each run
// costs about a second (loading the workspace), hence few runs and generous timeouts.
const run = (...args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", CLI, ...args], { encoding: "utf8" })

describe("ingest CLI", () => {
  it("generates an extract", () => {
    const out = tmp.path("cli.jsonl")
    const result = run("generate", "--seed", "3", "--count", "1_000", "--out", out)
    expect(result.stderr).toMatch(/wrote 1000 lines/)
    expect(result.status).toBe(0)
    expect(readFileSync(out, "utf8")).toBe([...serializeExtract(generateExtract({ seed: 3, count: 1000 }), "jsonl")].join(""))
  }, 30_000)

  it("prints the usage and exits with 2 on a bad command line", () => {
    for (
      const args of [
        [],
        ["frobnicate"],
        ["generate", "--seed", "1", "--count", "ten", "--out", tmp.path("a.jsonl")],
        ["generate", "--seed", "1", "--count", "10", "--out", tmp.path("a.txt")],
        ["generate", "--seed", "1", "--count", "10", "--out", tmp.path("a.jsonl"), "--colour", "red"]
      ]
    ) {
      const result = run(...args)
      expect(result.status, args.join(" ")).toBe(2)
      expect(result.stderr).toContain("usage: npm run ingest")
    }
  }, 60_000)

  it("prints the usage on --help", () => {
    const result = run("--help")
    expect(result.status).toBe(0)
    expect(result.stdout).toContain("generate --seed N --count N --out FILE")
  }, 30_000)
})
