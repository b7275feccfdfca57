import { assert, describe, it } from "@effect/vitest"
import { loadDataset, snapshotPathOf, snapshotSource } from "@equides/ingest"
import { generateExtract, writeExtract } from "@equides/ingest/generate"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadLogging, logPhase } from "./loadLog.ts"

/** Runs `effect` with a logger that keeps each line as `phase | message`. */
const logged = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ fiber, message }) => {
      const phase = fiber.getRef(References.CurrentLogAnnotations)["phase"]
      lines.push(`${String(phase)} | ${(Array.isArray(message) ? message : [message]).join(" ")}`)
    })
    yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return lines
  })

const extract = Effect.promise(async () => {
  const file = join(await mkdtemp(join(tmpdir(), "equides-loadlog-")), "extract.jsonl")
  await writeExtract(generateExtract({ seed: 2, count: 200 }), file)
  return file
})

describe("load log", () => {
  it.effect("says each phase of a load from the source, then the end of the reading", () =>
    Effect.gen(function*() {
      const file = yield* extract
      const lines = yield* logged(Effect.flatMap(loadLogging, (options) => loadDataset(file, options)))
      assert.strictEqual(lines.length, 4, lines.join("\n"))
      assert.strictEqual(lines[0], "reading | Chargement : lecture")
      assert.match(lines[1], /^reading \| Chargement : lecture 100 % \(200 lignes, \d+ Mo en \d+\.\d s\)$/)
      assert.strictEqual(lines[2], "indexing | Chargement : indexation")
      assert.strictEqual(lines[3], "genetics | Chargement : génétique (consanguinité et générations de chaque fiche)")
    }))

  it.effect("reads a snapshot with no indexing phase and no line count", () =>
    Effect.gen(function*() {
      const file = yield* extract
      yield* snapshotSource(file, snapshotPathOf(file))
      const lines = yield* logged(Effect.flatMap(loadLogging, (options) => loadDataset(file, options)))
      assert.deepStrictEqual(lines.map((line) => line.replace(/\(.*\)/, "(…)")), [
        "reading | Chargement : lecture",
        "reading | Chargement : lecture 100 % (…)"
      ])
      assert.notInclude(lines[1], "lignes")
    }))

  it.effect("logs the reading every 10 %, once each", () =>
    Effect.gen(function*() {
      const lines = yield* logged(Effect.gen(function*() {
        const { onProgress } = yield* loadLogging
        for (let percent = 0; percent <= 100; percent++) {
          onProgress?.({ fraction: percent / 100, lines: percent * 1000, bytes: percent * 1e6, elapsedMs: 1000 })
        }
      }))
      assert.deepStrictEqual(
        lines.map((line) => /lecture (\d+) %/.exec(line)?.[1]),
        ["10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]
      )
      assert.strictEqual(lines[3], "reading | Chargement : lecture 40 % (40000 lignes, 40 Mo en 1.0 s)")
    }))

  it.effect("counts the tenths again when a reading starts over (a snapshot refused, then the source)", () =>
    Effect.gen(function*() {
      const lines = yield* logged(Effect.gen(function*() {
        const { onPhase, onProgress } = yield* loadLogging
        for (const _ of [1, 2]) {
          onPhase?.("reading")
          onProgress?.({ fraction: 0.5, bytes: 5e6, elapsedMs: 500 })
          onProgress?.({ fraction: 1, bytes: 1e7, elapsedMs: 1000 })
        }
      }))
      assert.deepStrictEqual(lines.map((line) => line.replace(/ \(.*\)/, "")), [
        "reading | Chargement : lecture",
        "reading | Chargement : lecture 50 %",
        "reading | Chargement : lecture 100 %",
        "reading | Chargement : lecture",
        "reading | Chargement : lecture 50 %",
        "reading | Chargement : lecture 100 %"
      ])
    }))

  it.effect("says the collection phase, and nothing below the configured level", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* logged(logPhase("collecting")), ["collecting | Chargement : collecte de la mémoire"])
      const quiet = yield* logged(Effect.gen(function*() {
        const { onPhase } = yield* loadLogging
        onPhase?.("reading")
      }).pipe(Effect.provideService(References.MinimumLogLevel, "Warn")))
      assert.deepStrictEqual(quiet, [])
    }))
})
