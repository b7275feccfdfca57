/**
 * Programs some tests need that npm cannot give (`redis-server`, `chromium`). `.ci/run` installs
 * them through apt; on a developer's machine without them the tests are skipped with a message
 * saying how to install them, and in CI (`CI=true`) their absence fails the run instead of
 * skipping: a test that never runs in CI is not a test.
 */
import { accessSync, constants } from "node:fs"
import { delimiter, join } from "node:path"

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The path of `name` on `PATH` (or of the first of `candidates` that exists), if any. */
export const which = (name: string, candidates: ReadonlyArray<string> = []): string | undefined =>
  [...candidates, ...(process.env["PATH"] ?? "").split(delimiter).filter((dir) => dir !== "").map((dir) => join(dir, name))]
    .find(isExecutable)

/**
 * The program a test file needs, or `undefined` with a warning (the caller skips its tests).
 * Throws under `CI=true`, so CI never passes by skipping.
 */
export const requiredProgram = (name: string, aptPackage: string, candidates: ReadonlyArray<string> = []): string | undefined => {
  const path = which(name, candidates)
  if (path !== undefined) return path
  const how = `install it with \`apt-get install ${aptPackage}\` (or run .ci/run, which does)`
  if (process.env["CI"] === "true") throw new Error(`${name} is required in CI but was not found: ${how}`)
  process.emitWarning(`tests skipped: ${name} was not found; ${how}`)
  return undefined
}
