/**
 * The served OpenAPI document, as the tools of the trade read it: `redocly lint` with the
 * recommended rules and `spectral lint` with `spectral:oas` find nothing, not even a warning.
 * Both run in this Node (the repository's devDependencies), against a server on port 0.
 */
import { assert, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { FAMILY } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const require = createRequire(import.meta.url)
const binOf = (pkg: string, bin: string): string => join(dirname(require.resolve(`${pkg}/package.json`)), bin)
const REDOCLY = binOf("@redocly/cli", "bin/cli.js")
const SPECTRAL = binOf("@stoplight/spectral-cli", "dist/index.js")

/** Runs a Node CLI; its standard output, whatever its exit code (both exit non-zero on errors). */
const run = (script: string, args: ReadonlyArray<string>, cwd: string) =>
  Effect.callback<string>((resume) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" }, timeout: 60_000 },
      (_error, stdout) => resume(Effect.succeed(stdout))
    )
  })

interface Finding {
  readonly code: string
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

layer(testServer(fromRecords(FAMILY)))("openapi lint", (it) => {
  it.effect("redocly (recommended) and spectral (spectral:oas) report 0 errors and 0 warnings", () =>
    Effect.gen(function*() {
      const document = (yield* call("/openapi.json")).text
      const dir = mkdtempSync(join(tmpdir(), "equides-lint-"))
      try {
        writeFileSync(join(dir, "openapi.json"), document)
        writeFileSync(join(dir, ".spectral.yaml"), "extends: [\"spectral:oas\"]\n")
        const [redocly, spectral] = yield* Effect.all([
          run(REDOCLY, ["lint", "--extends", "recommended", "--format", "json", "openapi.json"], dir),
          run(SPECTRAL, ["lint", "-r", ".spectral.yaml", "-f", "json", "openapi.json"], dir)
        ], { concurrency: 2 })
        const report = JSON.parse(redocly.slice(redocly.indexOf("{"))) as { totals: { errors: number; warnings: number }; problems: Array<unknown> }
        assert.deepStrictEqual(report.problems, [])
        assert.deepStrictEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 })
        const findings = JSON.parse(spectral.slice(spectral.indexOf("["), spectral.lastIndexOf("]") + 1)) as Array<Finding>
        assert.deepStrictEqual(findings.map(({ code, message, path }) => `${code} ${path.join(".")}: ${message}`), [])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }), { timeout: 90_000 })
})
