/**
 * `npm run ingest -- <command> …`: the data tools of the project.
 *
 * Exit codes: 0 done, 1 the command failed, 2 the command line is wrong (usage printed).
 */
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { generateExtract, MAX_SEED } from "./generate/generateExtract.ts"
import { extractTargetOf, writeExtract } from "./generate/writeExtract.ts"
import { ingestSource, snapshotPathOf, snapshotSource } from "./load/loadDataset.ts"
import { loadReport, progressLine } from "./load/loadReport.ts"

const USAGE = `usage: npm run ingest -- <command> [options]

commands:
  generate --seed N --count N --out FILE
      Writes a deterministic, realistic extract of N lines (same seed and count, same bytes).
      FILE ends in .jsonl, .ndjson or .csv, optionally followed by .gz.
      Example: npm run ingest -- generate --seed 1 --count 30000 --out packages/ingest/sample/equides-sample.jsonl.gz
  check FILE
      Loads FILE as the server would and prints its anomaly report and the load figures
      (time, lines/s, rows, memory). Fails, naming the file, the line and the reason, on a bad file.
  snapshot FILE [--out SNAPSHOT]
      Ingests FILE and writes the binary snapshot of its Dataset (default FILE.snapshot). The
      server loads FILE from FILE.snapshot in seconds while the snapshot matches FILE.
`

class UsageError extends Error {}

interface Command {
  readonly run: (args: ReadonlyArray<string>) => Promise<void>
}

const naturalNumber = (name: string, text: string | undefined, max: number): number => {
  if (text === undefined) throw new UsageError(`missing --${name}`)
  const digits = text.replaceAll("_", "")
  const value = Number(digits)
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(value) || value > max) {
    throw new UsageError(`--${name} must be an integer between 0 and ${max}, got "${text}"`)
  }
  return value
}

const generate: Command = {
  run: async (args) => {
    const { values } = parseArgs({
      args: [...args],
      options: { seed: { type: "string" }, count: { type: "string" }, out: { type: "string" } },
      strict: true,
      allowPositionals: false
    })
    const seed = naturalNumber("seed", values.seed, MAX_SEED)
    const count = naturalNumber("count", values.count, 100_000_000)
    const out = values.out
    if (out === undefined || out.length === 0) throw new UsageError("missing --out")
    if (extractTargetOf(out) === undefined) {
      throw new UsageError(`--out must end in .jsonl, .ndjson or .csv (optionally .gz), got "${out}"`)
    }
    const started = performance.now()
    const summary = await writeExtract(generateExtract({ seed, count }), out)
    const seconds = (performance.now() - started) / 1000
    process.stderr.write(
      `wrote ${summary.lines} line${summary.lines === 1 ? "" : "s"} to ${out} (${(summary.bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s\n`
    )
  }
}

const check: Command = {
  run: async (args) => {
    const { positionals } = parseArgs({ args: [...args], options: {}, strict: true, allowPositionals: true })
    const [file, ...extra] = positionals
    if (file === undefined || extra.length > 0) throw new UsageError("check takes exactly one FILE")
    const started = performance.now()
    const interactive = process.stderr.isTTY === true
    const { data } = await Effect.runPromise(
      ingestSource(file, {
        onProgress: (progress) => process.stderr.write(progressLine(progress) + (interactive ? "\r" : "\n"))
      })
    )
    if (interactive) process.stderr.write("\n")
    process.stdout.write(loadReport(data, performance.now() - started, process.memoryUsage()))
  }
}

const snapshot: Command = {
  run: async (args) => {
    const { positionals, values } = parseArgs({
      args: [...args],
      options: { out: { type: "string" } },
      strict: true,
      allowPositionals: true
    })
    const [file, ...extra] = positionals
    if (file === undefined || extra.length > 0) throw new UsageError("snapshot takes exactly one FILE")
    const out = values.out ?? snapshotPathOf(file)
    const started = performance.now()
    const data = await Effect.runPromise(snapshotSource(file, out))
    const seconds = (performance.now() - started) / 1000
    process.stderr.write(`wrote the snapshot of ${data.size} rows to ${out} in ${seconds.toFixed(1)} s\n`)
  }
}

const COMMANDS: Readonly<Record<string, Command>> = { generate, check, snapshot }

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [name, ...rest] = argv
  if (name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(USAGE)
    return 0
  }
  const command = name === undefined ? undefined : COMMANDS[name]
  try {
    if (command === undefined) {
      throw new UsageError(name === undefined ? "missing command" : `unknown command "${name}"`)
    }
    await command.run(rest)
    return 0
  } catch (error) {
    // parseArgs reports unknown or malformed options with ERR_PARSE_ARGS_* codes.
    const parseError = error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS")
    if (error instanceof UsageError || parseError) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}`)
      return 2
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  }
}

process.exitCode = await main(process.argv.slice(2))
