/** Test helpers: temporary files and a sink that keeps what it is given. */
import type { SourceRecord } from "@equides/domain"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readSource, type ReadSourceOptions } from "./readSource.ts"

export const FIXTURES = new URL("./fixtures/", import.meta.url).pathname

export const temporaryDirectory = (): { readonly path: (name: string) => string; readonly remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), "equides-source-"))
  return { path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export const writeFile = (path: string, content: string | Uint8Array): string => {
  writeFileSync(path, content)
  return path
}

export const collect = (file: string, options?: ReadSourceOptions) =>
  Effect.gen(function*() {
    const records: Array<SourceRecord> = []
    const lines: Array<number> = []
    const summary = yield* readSource(file, (record, line) => {
      records.push(record)
      lines.push(line)
      return undefined
    }, options)
    return { summary, records, lines }
  })
