/**
 * The bench's child processes: the generator, the API server and the bare baseline. Every child is
 * registered so that it is killed however the bench ends (normal end, error, Ctrl-C, SIGTERM).
 * Children run on this very Node binary (`process.execPath`), not through `npx`, so that the pid
 * read in `/proc` is the server's own.
 */
import { freePort } from "../packages/server/src/testing/ports.ts"
import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, existsSync, openSync, readFileSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

export const ROOT = join(import.meta.dirname, "..")
export const CACHE_DIR = join(ROOT, "bench", "cache")
/** Where the children's stdout and stderr go (git-ignored), so a failure can be shown. */
const LOG_DIR = join(CACHE_DIR, "logs")

const children = new Set<ChildProcess>()

const killAll = (): void => {
  for (const child of children) child.kill("SIGKILL")
}
process.on("exit", killAll)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the bench's child processes\n`)
    killAll()
    process.exit(signal === "SIGINT" ? 130 : 143)
  })
}

export interface Child {
  readonly process: ChildProcess
  readonly pid: number
  readonly log: string
  /** Settles when the child exits, with its exit code (or the signal that ended it). */
  readonly exited: Promise<string>
}

/** Runs `script` (a path from the repository root) on this Node binary, output to a log file. */
const start = async (
  name: string,
  script: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>
): Promise<Child> => {
  await mkdir(LOG_DIR, { recursive: true })
  const log = join(LOG_DIR, `${name}.log`)
  const fd = openSync(log, "w")
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", fd, fd] })
  closeSync(fd)
  if (child.pid === undefined) throw new Error(`could not start ${script}`)
  children.add(child)
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child)
      resolve(signal ?? `code ${code}`)
    })
  )
  return { process: child, pid: child.pid, log, exited }
}

const tail = (file: string): string => readFileSync(file, "utf8").split("\n").slice(-20).join("\n")

/** Stops a child with SIGTERM (it may finish in-flight work), SIGKILL after 5 s. */
export const stop = async (child: Child): Promise<void> => {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return
  child.process.kill("SIGTERM")
  const killed = setTimeout(() => child.process.kill("SIGKILL"), 5000)
  await child.exited
  clearTimeout(killed)
}

/**
 * A generated extract under bench/cache, made by the project's generator the first time only;
 * with `racePollution`, its hard twin (`race` polluted that many times as much as the registry's).
 */
export const ensureExtract = async (seed: number, count: number, racePollution?: number): Promise<string> => {
  const polluted = racePollution === undefined ? [] : ["--race-pollution", String(racePollution)]
  const file = join(CACHE_DIR, `equides-seed${seed}-${count}${racePollution === undefined ? "" : `-race${racePollution}`}.jsonl`)
  if (existsSync(file)) return file
  process.stderr.write(`generating ${count} records (seed ${seed}${racePollution === undefined ? "" : `, race pollution ${racePollution}`}) into ${file}…\n`)
  const generator = await start("generate", "packages/ingest/src/cli.ts", ["generate", "--seed", String(seed), "--count", String(count), ...polluted, "--out", file], {})
  const outcome = await generator.exited
  if (outcome !== "code 0") throw new Error(`the generator failed (${outcome}):\n${tail(generator.log)}`)
  return file
}

/**
 * The snapshot beside `file` (`FILE.snapshot`), written by the ingest CLI. The server refuses a
 * stale or corrupt one and loads the source instead, saying so in its log (`snapshotRefused`).
 */
export const writeSnapshotOf = async (file: string): Promise<void> => {
  process.stderr.write(`writing the snapshot of ${file}…\n`)
  const writer = await start("snapshot", "packages/ingest/src/cli.ts", ["snapshot", file], {})
  const outcome = await writer.exited
  if (outcome !== "code 0") throw new Error(`the snapshot could not be written (${outcome}):\n${tail(writer.log)}`)
}

export const hasSnapshot = (file: string): boolean => existsSync(`${file}.snapshot`)

/** Whether the server's log says it refused the snapshot (and loaded the source). */
export const snapshotRefused = (child: Child): boolean => readFileSync(child.log, "utf8").includes("snapshot refused")

export interface Started extends Child {
  readonly baseUrl: string
  /** From spawn to the first 200 on `readyPath`. */
  readonly startToReadyMs: number
}

/** Polls `baseUrl + path` until it answers 200; fails if the child exits first or after `timeoutMs`. */
const waitReady = async (child: Child, url: string, timeoutMs: number): Promise<void> => {
  let exit: string | undefined
  void child.exited.then((outcome) => (exit = outcome))
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (exit !== undefined) throw new Error(`${url}: the process exited (${exit}) before being ready:\n${tail(child.log)}`)
    const status = await fetch(url).then(async (response) => {
      await response.body?.cancel()
      return response.status
    }, () => undefined)
    if (status === 200) return
    await sleep(25)
  }
  throw new Error(`${url}: not ready after ${timeoutMs / 1000} s:\n${tail(child.log)}`)
}

const startHttp = async (
  name: string,
  script: string,
  env: Readonly<Record<string, string>>,
  readyPath: string,
  timeoutMs: number
): Promise<Started> => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const started = performance.now()
  const child = await start(name, script, [], { ...env, PORT: String(port), HOST: "127.0.0.1" })
  try {
    await waitReady(child, baseUrl + readyPath, timeoutMs)
  } catch (error) {
    await stop(child)
    throw error
  }
  return { ...child, baseUrl, startToReadyMs: performance.now() - started }
}

export interface ApiServer extends Started {
  readonly metricsUrl: string
}

/**
 * The API on `dataFile` as `npm start` runs it, metrics on a free port; ready once /readyz answers
 * 200. The quota is off unless `quota` is "deployed" (its defaults, as `npm start` has them); the
 * Parquet file written on request.
 */
export const startApi = async (dataFile: string, extraEnv: Readonly<Record<string, string>>, quota: "off" | "deployed" = "off"): Promise<ApiServer> => {
  const metricsPort = await freePort()
  // The Parquet extract is written when a bench asks for it, not at start (a query worker and its
  // memory for a minute would weigh on every measure of the first minute).
  const env = { DATA_FILE: dataFile, EXPORT_PARQUET: "request", ...(quota === "off" ? { RATE_LIMIT_RATE: "0" } : {}), METRICS_PORT: String(metricsPort), ...extraEnv }
  const server = await startHttp("server", "packages/server/src/main.ts", env, "/readyz", 10 * 60_000)
  return { ...server, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` }
}

export const startBare = (): Promise<Started> => startHttp("bare", "bench/bareServer.ts", {}, "/", 30_000)

export interface Memory {
  /** Resident set size now, and its peak (VmHWM), in bytes. */
  readonly rss: number
  readonly peakRss: number
  /** V8 heap in use, when the metrics listener publishes it. */
  readonly heapUsed?: number
}

const statusField = (status: string, field: string): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)
  return match === null ? Number.NaN : Number(match[1]) * 1024
}

/** Prometheus metric names for the V8 heap in use (prom-client's default, then a generic one). */
const HEAP_METRICS = ["nodejs_heap_size_used_bytes", "process_heap_bytes"]

export const memoryOf = async (server: ApiServer): Promise<Memory> => {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8")
  const text = await fetch(server.metricsUrl).then((response) => response.ok ? response.text() : "", () => "")
  const heapLine = HEAP_METRICS.map((name) => new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, "m").exec(text)).find((m) => m !== null)
  return {
    rss: statusField(status, "VmRSS"),
    peakRss: statusField(status, "VmHWM"),
    ...(heapLine == null ? {} : { heapUsed: Number(heapLine[1]) })
  }
}
