/**
 * `npm run ingest -- <command> …`: the data tools of the project, on `effect/cli` (`--help` on the
 * tool and on each command).
 *
 * Long work shows its progress on standard error: a bar on a terminal, a line every 10 % otherwise.
 * Exit codes: 0 done, 1 the command failed, 2 the command line is wrong (the help is printed,
 * then what is wrong).
 */
import { NodeServices } from "@effect/platform-node"
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { generateExtract, MAX_RACE_POLLUTION, MAX_SEED } from "./generate/generateExtract.ts"
import { extractTargetOf, writeExtract } from "./generate/writeExtract.ts"
import { ingestSource, type LoadOptions, snapshotPathOf, snapshotSource } from "./load/loadDataset.ts"
import { loadReport } from "./load/loadReport.ts"
import { progressDisplay } from "./progress/workProgress.ts"
import manifest from "../package.json" with { type: "json" }

/** A command that failed once started (not a wrong command line). */
class CommandFailed extends Data.TaggedError("CommandFailed")<{ readonly message: string }> {}

const failed = (cause: unknown) => new CommandFailed({ message: cause instanceof Error ? cause.message : String(cause) })

/** `N`, digits with optional `_` separators, at most `max`. */
const naturalNumber = (max: number) => (text: string): number => {
  const digits = text.replaceAll("_", "")
  const value = Number(digits)
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(value) || value > max) {
    throw new Error(`an integer between 0 and ${max}`)
  }
  return value
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const numberFlag = (name: string, max: number, description: string) =>
  Flag.String(name).pipe(Flag.withMetavar("N"), Flag.withDescription(description), Flag.mapTryCatch(naturalNumber(max), messageOf))

const stderr = process.stderr

/** What `check` and `snapshot` show while they read: the reading's progress, then the indexing and genetics steps with their times. */
const loadProgress = (): LoadOptions & { readonly end: () => void } => {
  const display = progressDisplay("reading", stderr)
  let started = performance.now()
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1)
  return {
    onProgress: display.update,
    onPhase: (phase) => {
      if (phase === "indexing") {
        display.end()
        stderr.write("indexing\n")
        started = performance.now()
      }
      if (phase === "genetics") {
        stderr.write(`genetics (after ${seconds()} s of indexing)\n`)
        started = performance.now()
      }
      if (phase === "writing") stderr.write(`genetics took ${seconds()} s\n`)
    },
    end: display.end
  }
}

const generate = Command.make(
  "generate",
  {
    seed: numberFlag("seed", MAX_SEED, "Generator seed: the same seed and count give the same bytes."),
    count: numberFlag("count", 100_000_000, "Lines to write (records)."),
    racePollution: numberFlag(
      "race-pollution",
      MAX_RACE_POLLUTION,
      "Pollute race N times as much as the registry's extract (11 747 distinct race times at 4.45 M lines): each line's " +
        "race a race time with its own code (1'10\"2 (ASC6H)) with probability N × 11 747 / 4 450 000; the other fields unchanged."
    ).pipe(Flag.optional),
    out: Flag.String("out").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Where to write: a name ending in .jsonl, .ndjson or .csv, optionally followed by .gz."),
      Flag.mapTryCatch((out) => {
        if (extractTargetOf(out) === undefined) throw new Error("a name ending in .jsonl, .ndjson or .csv, optionally followed by .gz")
        return out
      }, messageOf)
    )
  },
  Effect.fnUntraced(function*({ count, out, racePollution, seed }) {
    const display = progressDisplay("writing", stderr)
    const started = performance.now()
    const summary = yield* Effect.tryPromise({
      try: () =>
        writeExtract(generateExtract({ seed, count, ...Option.match(racePollution, { onNone: () => ({}), onSome: (n) => ({ racePollution: n }) }) }), out, {
          onProgress: (progress) => display.update({ ...progress, fraction: count === 0 ? 1 : progress.lines / count })
        }),
      catch: failed
    })
    display.end()
    const { lines, bytes } = summary
    const seconds = (performance.now() - started) / 1000
    stderr.write(`wrote ${lines} line${lines === 1 ? "" : "s"} to ${out} (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s\n`)
  })
).pipe(
  Command.withDescription("Writes a deterministic, realistic extract of --count lines (same seed and count, same bytes)."),
  Command.withExamples([{
    command: "npm run ingest -- generate --seed 1 --count 30000 --out packages/ingest/sample/equides-sample.jsonl.gz",
    description: "The embedded sample"
  }, {
    command: "npm run ingest -- generate --seed 1 --count 4450000 --race-pollution 30 --out bench/cache/equides-seed1-4450000-race30.jsonl",
    description: "The bench's hard extract: about 352 000 distinct race values"
  }])
)

const file = Argument.String("file").pipe(Argument.withMetavar("FILE"))

const check = Command.make(
  "check",
  { file: file.pipe(Argument.withDescription("The extract to check (.jsonl, .ndjson or .csv, optionally .gz).")) },
  Effect.fnUntraced(function*({ file }) {
    const started = performance.now()
    const progress = loadProgress()
    const { data } = yield* ingestSource(file, progress).pipe(Effect.mapError(failed))
    progress.end()
    process.stdout.write(loadReport(data, performance.now() - started, process.memoryUsage()))
  })
).pipe(
  Command.withDescription(
    "Loads FILE as the server would and prints its anomaly report and the load figures (time, lines/s, rows, memory). " +
      "Fails, naming the file, the line and the reason, on a bad file."
  )
)

const snapshot = Command.make(
  "snapshot",
  {
    file: file.pipe(Argument.withDescription("The extract whose snapshot is written.")),
    out: Flag.String("out").pipe(
      Flag.withMetavar("SNAPSHOT"),
      Flag.withDescription("Where to write the snapshot (default: FILE.snapshot, where the server looks for it)."),
      Flag.optional
    )
  },
  Effect.fnUntraced(function*({ file, out }) {
    const target = Option.getOrElse(out, () => snapshotPathOf(file))
    const started = performance.now()
    const progress = loadProgress()
    const data = yield* snapshotSource(file, target, {
      ...progress,
      onPhase: (phase) => {
        progress.onPhase?.(phase)
        if (phase === "writing") stderr.write(`writing ${target}\n`)
      }
    }).pipe(Effect.mapError(failed))
    const seconds = (performance.now() - started) / 1000
    stderr.write(`wrote the snapshot of ${data.size} rows to ${target} in ${seconds.toFixed(1)} s\n`)
  })
).pipe(
  Command.withDescription(
    "Ingests FILE and writes the binary snapshot of its Dataset. The server loads FILE from FILE.snapshot in seconds " +
      "while the snapshot matches FILE."
  )
)

const ingest = Command.make("ingest").pipe(
  Command.withDescription("The data tools of Équidés API: npm run ingest -- <command> [options]"),
  Command.withSubcommands([generate, check, snapshot])
)

/** 0 done, 2 a wrong command line (its help and the error are printed already), 1 a failure (said here). */
const exitCode = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  const error = Cause.squash(exit.cause)
  if (CliError.isCliError(error)) return 2
  stderr.write(`${messageOf(error)}\n`)
  return 1
}

const exit = await Effect.runPromiseExit(
  Command.runWith(ingest, { version: manifest.version })(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer))
)
process.exitCode = exitCode(exit)
