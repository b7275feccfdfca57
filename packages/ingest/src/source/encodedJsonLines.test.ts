/**
 * The two ways a JSON Lines file reaches the Dataset builder give the same result: on a worker
 * thread (large files: lines scanned in place, batches handed over, the row count estimated) and
 * in line (small files, tests). Same Dataset, and the same error, on the same line, when the load
 * must stop.
 */
import { DatasetAssembler, type DatasetData } from "@equides/domain"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { gzipSync } from "node:zlib"
import { generateExtract } from "../generate/generateExtract.ts"
import { readSourceInto } from "./readSource.ts"
import { temporaryDirectory, writeFile } from "./testing.ts"

const tmp = temporaryDirectory()
afterAll(() => tmp.remove())

const build = (file: string, worker: boolean) =>
  Effect.gen(function*() {
    const assembler = new DatasetAssembler()
    const info = yield* readSourceInto(file, assembler, { worker })
    const data: DatasetData = assembler.finish(info.encoded, {
      file: "x",
      fingerprint: info.fingerprint,
      bytes: info.bytes,
      lines: info.lines,
      ingestedAt: ""
    })
    return { data, info }
  })

// Generated lines (forward references, dangling and unreadable ids, defects of every kind), some
// rewritten so that a few take the slow path (escapes), a blank line, a CRLF ending.
const lines = [...generateExtract({ seed: 11, count: 6000 })].map((raw, i) => {
  const line = JSON.stringify(raw)
  if (i % 97 === 0) return line.replace(/"nom":"([A-Z])/, "\"nom\":\"\\u00c9$1")
  if (i % 101 === 0) return `${line}\r`
  return line
})
const text = [...lines.slice(0, 3000), "", ...lines.slice(3000)].join("\n") + "\n"

describe("JSON Lines on a worker thread", () => {
  it.effect("builds the same Dataset as in line, from a plain or a compressed file", () =>
    Effect.gen(function*() {
      const file = writeFile(tmp.path("extract.jsonl"), text)
      // Compressed, the text's size is unknown: no row estimate, the columns grow as they go.
      const compressed = writeFile(tmp.path("extract.jsonl.gz"), gzipSync(text))
      const inline = yield* build(file, false)
      for (const source of [file, compressed]) {
        const threaded = yield* build(source, true)
        expect(threaded.info.lines).toBe(inline.info.lines)
        expect(threaded.info.records).toBe(inline.info.records)
        expect(threaded.data).toStrictEqual({ ...inline.data, provenance: threaded.data.provenance })
      }
      expect(inline.data.size).toBeGreaterThan(5900)
    }), 60_000)

  it.effect("stops on the same line with the same reason: invalid JSON, duplicate id", () =>
    Effect.gen(function*() {
      const broken = [...lines.slice(0, 4000), "{\"id\": \"x\",}", ...lines.slice(4000)].join("\n")
      const duplicated = [...lines.slice(0, 4500), lines[10], ...lines.slice(4500)].join("\n")
      for (const [name, content] of [["broken.jsonl", broken], ["duplicated.jsonl", duplicated]] as const) {
        const file = writeFile(tmp.path(name), content)
        const inline = yield* Effect.flip(build(file, false))
        const threaded = yield* Effect.flip(build(file, true))
        expect(threaded.message).toBe(inline.message)
        expect(inline.message).toMatch(/:4001: |:4501: /)
      }
    }), 60_000)
})
