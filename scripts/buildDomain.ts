/**
 * `npm run build`: `@equides/domain` as a publishable package in `packages/domain/dist/`:
 * JavaScript and declaration files compiled from the sources (which the repository itself keeps
 * running through Node's type stripping), a `package.json` whose `exports` map points at them, the
 * package's README and licence. `npm pack packages/domain/dist` makes the tarball.
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const source = join(root, "packages/domain")
const dist = join(source, "dist")

interface SourceManifest {
  readonly name: string
  readonly version: string
  readonly exports: Readonly<Record<string, string>>
  readonly dependencies: Readonly<Record<string, string>>
}

/** Every file under `dir`. */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/**
 * Declaration files keep the sources' `.ts` specifiers (the compiler rewrites them in JavaScript
 * only): pointed at the `.js` files they describe, so that any consumer resolves them.
 */
const rewriteDeclarations = (): void => {
  for (const file of filesUnder(dist).filter((path) => path.endsWith(".d.ts"))) {
    const text = readFileSync(file, "utf8")
    const rewritten = text.replace(/((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g, "$1$2$3.js$2")
    if (rewritten !== text) writeFileSync(file, rewritten)
  }
}

/** `./src/x.ts` → `{ types: "./x.d.ts", default: "./x.js" }`. */
const exportOf = (path: string) => {
  const base = path.replace(/^\.\/src\//, "./").replace(/\.ts$/, "")
  return { types: `${base}.d.ts`, default: `${base}.js` }
}

const build = (): void => {
  rmSync(dist, { recursive: true, force: true })
  const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin/tsc")
  execFileSync(process.execPath, [tsc, "-p", join(source, "tsconfig.build.json")], { stdio: "inherit" })
  rewriteDeclarations()
  const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as SourceManifest
  const published = {
    name: manifest.name,
    version: manifest.version,
    description:
      "Équidés API domain: schemas of the French equine registry extract, the columnar Dataset (and fromRecords for mock layers), pure queries, the HttpApi definition and its typed client (Effect 4)",
    license: "MIT",
    type: "module",
    sideEffects: false,
    engines: { node: ">=22" },
    exports: Object.fromEntries(Object.entries(manifest.exports).map(([key, path]) => [key, exportOf(path)])),
    dependencies: manifest.dependencies,
    // Only `./testing` (fast-check arbitraries of records) needs it.
    peerDependencies: { "fast-check": "^4.3.0" },
    peerDependenciesMeta: { "fast-check": { optional: true } }
  }
  writeFileSync(join(dist, "package.json"), `${JSON.stringify(published, null, 2)}\n`)
  for (const file of ["README.md", "LICENSE"]) copyFileSync(join(source, file), join(dist, file))
}

build()
