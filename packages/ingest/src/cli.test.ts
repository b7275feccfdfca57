import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { readFileSync, statSync } from "node:fs"
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
  it("generates an extract, then checks it and writes its snapshot, with progress lines off a terminal", () => {
    const out = tmp.path("cli.jsonl")
    const generated = run("generate", "--seed", "3", "--count", "1_000", "--out", out)
    expect(generated.status).toBe(0)
    expect(generated.stderr).toMatch(/wrote 1000 lines/)
    expect(readFileSync(out, "utf8")).toBe([...serializeExtract(generateExtract({ seed: 3, count: 1000 }), "jsonl")].join(""))
    // Standard error is a pipe here: lines, not a bar redrawn with carriage returns; the last says 100 %.
    expect(generated.stderr).not.toContain("\r")
    expect(generated.stderr).toMatch(/^writing 100 %  1,000 lines  [\d.]+ MB/m)

    const checked = run("check", out)
    expect(checked.status).toBe(0)
    expect(checked.stdout).toMatch(/^lines +1,000$/m)
    expect(checked.stderr).toMatch(/^reading 100 %  1,000 lines/m)
    expect(checked.stderr).toMatch(/^indexing$/m)
    expect(checked.stderr).not.toContain("\r")

    const snapshot = tmp.path("cli.snap")
    const snapshotted = run("snapshot", out, "--out", snapshot)
    expect(snapshotted.status).toBe(0)
    expect(snapshotted.stderr.split("\n").filter((line) => /^(reading 100 %|indexing|writing )/.test(line))).toEqual([
      expect.stringMatching(/^reading 100 %/),
      "indexing",
      `writing ${snapshot}`
    ])
    expect(snapshotted.stderr).toMatch(/wrote the snapshot of \d+ rows to /)
    expect(statSync(snapshot).size).toBeGreaterThan(0)
  }, 60_000)

  it("generates the hard extract with --race-pollution: the generator's lines with that option", () => {
    const out = tmp.path("hard.jsonl")
    const generated = run("generate", "--seed", "3", "--count", "500", "--race-pollution", "30", "--out", out)
    expect(generated.status).toBe(0)
    expect(readFileSync(out, "utf8")).toBe([...serializeExtract(generateExtract({ seed: 3, count: 500, racePollution: 30 }), "jsonl")].join(""))
    expect(readFileSync(out, "utf8")).not.toBe([...serializeExtract(generateExtract({ seed: 3, count: 500 }), "jsonl")].join(""))
  }, 30_000)

  it("prints the help and what is wrong, and exits with 2, on a bad command line", () => {
    for (
      const [args, wrong] of [
        [[], undefined],
        [["frobnicate"], /Unknown subcommand "frobnicate"/],
        [["generate", "--seed", "1", "--count", "ten", "--out", tmp.path("a.jsonl")], /--count: "ten".*an integer between 0 and 100000000/],
        [["generate", "--seed", "1", "--count", "10", "--out", tmp.path("a.txt")], /--out: .*a name ending in \.jsonl, \.ndjson or \.csv/],
        [["generate", "--seed", "1", "--count", "10", "--out", tmp.path("a.jsonl"), "--colour", "red"], /Unrecognized flag: --colour/],
        [["generate", "--seed", "1", "--count", "10", "--race-pollution", "x", "--out", tmp.path("a.jsonl")], /--race-pollution: "x".*an integer between 0 and 378/],
        [["check"], /Missing required argument: file/]
      ] as const
    ) {
      const result = run(...args)
      expect(result.status, args.join(" ")).toBe(2)
      expect(result.stdout + result.stderr).toContain("USAGE")
      if (wrong !== undefined) expect(result.stderr).toMatch(wrong)
    }
  }, 90_000)

  it("exits with 1, saying why, when a command fails", () => {
    const result = run("check", tmp.path("absent.jsonl"))
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("absent.jsonl")
  }, 30_000)

  it("prints the help of the tool and of each command on --help", () => {
    const tool = run("--help")
    expect(tool.status).toBe(0)
    for (const command of ["generate", "check", "snapshot"]) expect(tool.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    const usages = {
      generate: ["--seed N", "--count N", "--out FILE"],
      check: ["ingest check [flags] <file>"],
      snapshot: ["ingest snapshot [flags] <file>", "--out SNAPSHOT"]
    }
    for (const [command, expected] of Object.entries(usages)) {
      const result = run(command, "--help")
      expect(result.status, command).toBe(0)
      for (const text of expected) expect(result.stdout, command).toContain(text)
    }
  }, 60_000)
})
