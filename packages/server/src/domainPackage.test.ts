/**
 * `@equides/domain` as its users meet it: built (`npm run build`), packed (`npm pack`), installed
 * from the tarball into an empty project (its one dependency, `effect`, from the npm cache when it
 * holds it), and there a small program type-checks (no `skipLibCheck`: the package's declaration
 * files are checked too) and runs: it queries a mock Dataset built from a few records and calls a
 * running server through the typed client.
 */
import { assert, layer } from "@effect/vitest"
import { API_VERSION, fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { DAM, FAMILY, SIRE, SON } from "./testing/family.ts"
import { serverUrl, testServer } from "./testing/server.ts"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..")
const TSC = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin/tsc")
const NPM = process.platform === "win32" ? "npm.cmd" : "npm"

/** Runs a program; its standard output, or a failure carrying both outputs. */
const run = (file: string, args: ReadonlyArray<string>, cwd: string) =>
  Effect.callback<string, Error>((resume) => {
    execFile(file, args, { cwd, timeout: 80_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(
        error === null
          ? Effect.succeed(stdout)
          : Effect.fail(new Error(`${file} ${args.join(" ")}: ${error.message}\n${stdout}\n${stderr}`))
      ))
  })

/** The consumer's program: a mock Dataset of two records, then the typed client against `base`. */
const program = (base: string) => `
import { Dataset, EquidesApiClient, equide, findEquide, fromRecords, pedigree, type SourceRecord } from "@equides/domain"
import * as Effect from "effect/Effect"

const records: ReadonlyArray<SourceRecord> = [
  { id: "${SON}", nom: "QUAPRICE BOIMARGOT", sexe: "Male", race: "Selle Francais",
    pere: { id: "${SIRE}", nom: "JAPPELOUP DE LUZE", race: "SF" } },
  { id: "${SIRE}", nom: "JAPPELOUP DE LUZE", sexe: "Male", race: "Selle Francais" }
]

const local = Effect.gen(function*() {
  const data = yield* Dataset
  const row = findEquide(data, "${SON}")
  if (row === undefined) return undefined
  return { pere: equide(data, row).pere?.nom, noeuds: pedigree(data, row, 2).noeuds }
}).pipe(Effect.provide(fromRecords(records)))

const remote = Effect.gen(function*() {
  const client = yield* EquidesApiClient
  const meta = yield* client.meta({ query: {} })
  const page = yield* client.equides.list({ query: { sexe: ["Femelle"], limite: 5 } })
  const mother = yield* client.equides.get({ params: { id: "${DAM}" }, query: {} })
  return { version: meta.version_api, femelles: page.pagination.total, nom: mother.nom }
}).pipe(Effect.provide(EquidesApiClient.layer("${base}")))

console.log(JSON.stringify(await Effect.runPromise(Effect.all({ local, remote }))))
`

const TSCONFIG = {
  compilerOptions: {
    target: "ES2024",
    lib: ["ES2024", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: false
  },
  include: ["main.ts"]
}

layer(testServer(fromRecords(FAMILY)))("package", (it) => {
  it.effect("builds, packs, installs from its tarball, type-checks and runs a program using a mock Dataset and the typed client", () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      const dir = mkdtempSync(join(tmpdir(), "equides-package-"))
      try {
        yield* run(process.execPath, ["--experimental-strip-types", "--disable-warning=ExperimentalWarning", "scripts/buildDomain.ts"], ROOT)
        yield* run(NPM, ["pack", "--silent", "--pack-destination", dir, "packages/domain/dist"], ROOT)
        const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"))
        assert.strictEqual(tarball, `equides-domain-${API_VERSION}.tgz`)
        const project = join(dir, "consumer")
        mkdirSync(project)
        writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
        yield* run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(dir, tarball!)], project)
        writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG))
        writeFileSync(join(project, "main.ts"), program(base))
        yield* run(process.execPath, [TSC, "-p", project], project)
        const output = yield* run(process.execPath, ["--experimental-strip-types", "--disable-warning=ExperimentalWarning", "main.ts"], project)
        assert.deepStrictEqual(JSON.parse(output), {
          local: { pere: "JAPPELOUP DE LUZE", noeuds: 2 },
          remote: { version: API_VERSION, femelles: 3, nom: "VENISE" }
        })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }), { timeout: 180_000 })
})
