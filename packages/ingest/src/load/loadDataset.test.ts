import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { copyFile, mkdtemp, readFile, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { builderSignature } from "../snapshot/Snapshot.ts"
import { signedByAnotherBuilder } from "../snapshot/testing.ts"
import { ingestSource, loadDataset, snapshotPathOf, snapshotSource } from "./loadDataset.ts"

const FIXTURE = new URL("../source/fixtures/anomalies.jsonl", import.meta.url)

const freshCopy = Effect.promise(async () => {
  const dir = await mkdtemp(join(tmpdir(), "equides-load-"))
  const file = join(dir, "extract.jsonl")
  await copyFile(FIXTURE, file)
  return file
})

describe("loadDataset", () => {
  it.effect("dates the extract by the file's modification time and fingerprints its bytes", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      const when = new Date("2026-01-15T08:30:00.000Z")
      yield* Effect.promise(() => utimes(file, when, when))
      const { data } = yield* ingestSource(file)
      expect(data.provenance.ingestedAt).toBe(when.toISOString())
      expect(data.provenance.file).toBe("extract.jsonl")
      expect(data.provenance.fingerprint).toMatch(/^[0-9a-f]{64}$/)
      expect(data.size).toBe(10)
    }))

  it.effect("serves a fresh snapshot instead of ingesting the source", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      const written = yield* snapshotSource(file, snapshotPathOf(file))
      const loaded = yield* loadDataset(file)
      // Views on the snapshot's single buffer prove it was read, not the source re-ingested.
      expect(loaded.nom.bytes.buffer).toBe(loaded.ids.buffer)
      expect(loaded.provenance).toEqual(written.provenance)
      expect(loaded.anomalies).toEqual(written.anomalies)
    }))

  it.effect("refuses a stale snapshot and ingests the changed source", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      yield* snapshotSource(file, snapshotPathOf(file))
      const text = yield* Effect.promise(() => readFile(file, "utf8"))
      yield* Effect.promise(() => writeFile(file, text.split("\n").slice(0, 3).join("\n")))
      const loaded = yield* loadDataset(file)
      expect(loaded.size).toBe(2)
      expect(loaded.nom.bytes.buffer).not.toBe(loaded.ids.buffer)
    }))

  it.effect("refuses a snapshot written by another Dataset builder, says why, and ingests the source", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      const snapshot = snapshotPathOf(file)
      const written = yield* snapshotSource(file, snapshot)
      yield* Effect.promise(() => signedByAnotherBuilder(snapshot, "f".repeat(64)))
      const logged: Array<string> = []
      const loaded = yield* loadDataset(file).pipe(
        Effect.provide(Logger.layer([Logger.make(({ logLevel, message }) => logged.push(`${logLevel} ${String(message)}`))]))
      )
      expect(logged).toEqual([
        `Warn snapshot refused, loading the source: ${snapshot}: stale: written by another Dataset builder ` +
        `(code signature ffffffffffff…, this build's ${builderSignature().slice(0, 12)}…): its columns may be computed otherwise`
      ])
      // Ingested: its columns are not views on one snapshot buffer; the same data.
      expect(loaded.nom.bytes.buffer).not.toBe(loaded.ids.buffer)
      expect(loaded.size).toBe(written.size)
      expect(loaded.provenance).toEqual(written.provenance)
    }))

  it.effect("refuses a corrupt snapshot and ingests the source", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      const snapshot = snapshotPathOf(file)
      const written = yield* snapshotSource(file, snapshot)
      const bytes = yield* Effect.promise(() => readFile(snapshot))
      bytes[bytes.length - 3] ^= 0xff
      yield* Effect.promise(() => writeFile(snapshot, bytes))
      const loaded = yield* loadDataset(file)
      expect(loaded.size).toBe(written.size)
      expect(loaded.nom.bytes.buffer).not.toBe(loaded.ids.buffer)
    }))

  it.effect("stops at a duplicate id, naming the file, the line and the first occurrence", () =>
    Effect.gen(function*() {
      const file = yield* freshCopy
      const text = yield* Effect.promise(() => readFile(file, "utf8"))
      const first = text.split("\n")[0]
      yield* Effect.promise(() => writeFile(file, `${text.trimEnd()}\n${first}\n`))
      const error = yield* Effect.flip(loadDataset(file))
      expect(error.file).toBe(file)
      expect(error.line).toBe(14)
      expect(error.reason).toMatch(/^duplicate id zIk8Wf-4LWzeuwrEolg0DQ \(first seen on line 1\)$/)
    }))

  it.effect("names the file when it is missing", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadDataset("/nonexistent/extract.jsonl"))
      expect(error.file).toBe("/nonexistent/extract.jsonl")
      expect(error.message).toContain("/nonexistent/extract.jsonl")
    }))
})
