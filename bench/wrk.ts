/**
 * Measurements with `wrk` (issue 11, item 7): a client in C that saturates the server, where
 * autocannon, in JavaScript on the same two cores, measures the client as much as the server.
 * Used for the answer paths that cost least (304, kept response) and for executed lookups with
 * the response cache off, each beside the bare `node:http` server answering the same thing in the
 * same run. `wrk` comes from apt (`apt-get install wrk`); without it the section is skipped with a
 * message saying so.
 */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { median } from "./load.ts"

const run = promisify(execFile)

export interface WrkResult {
  readonly requestsPerSecond: number
  readonly requests: number
  /** Milliseconds, from wrk's latency distribution. */
  readonly p50: number
  readonly p99: number
  /** Non-2xx/3xx responses and socket errors. */
  readonly errors: number
  /**
   * The server's CPU time per request (user + system, all its threads), in microseconds: unlike
   * the rate, it does not depend on how much of the machine the server got, so it stays
   * comparable on a machine shared with the load generator and other work.
   */
  readonly cpuMicrosPerRequest?: number
}

/** `wrk`'s path, or undefined when it is not installed. */
export const findWrk = async (): Promise<string | undefined> => {
  try {
    await run("wrk", ["--version"])
    return "wrk"
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: it is there.
    return (error as { code?: unknown }).code === "ENOENT" ? undefined : "wrk"
  }
}

/** A wrk duration (`812.00us`, `1.20ms`, `2.01s`) in milliseconds. */
export const wrkMs = (text: string): number => {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text)
  if (match === null) return Number.NaN
  const value = Number(match[1])
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value
}

/** The figures of wrk's report (run with `--latency`). */
export const parseWrk = (output: string): WrkResult => {
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output)
  const requests = /(\d+) requests in/.exec(output)
  const p50 = /^\s+50%\s+(\S+)/m.exec(output)
  const p99 = /^\s+99%\s+(\S+)/m.exec(output)
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  if (rate === null) throw new Error(`wrk printed no rate:\n${output}`)
  return {
    requestsPerSecond: Number(rate[1]),
    requests: Number(requests?.[1] ?? 0),
    p50: p50 === null ? Number.NaN : wrkMs(p50[1]!),
    p99: p99 === null ? Number.NaN : wrkMs(p99[1]!),
    errors: Number(non2xx?.[1] ?? 0) + (socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0))
  }
}

export interface WrkOptions {
  readonly connections: number
  /** Seconds per run; a paired run is that many slices of `SLICE_SECONDS` (`wrkPaired`). */
  readonly duration: number
  readonly runs: number
  /** Where wrk runs, when the servers are pinned (`findPinning`). */
  readonly pinning?: Pinning
}

/**
 * The CPUs of the servers measured and of wrk, apart: the first half of the machine's CPUs for
 * the servers, the rest for the client. Sharing both cores with wrk, two servers alternating
 * (today's code and commit cc4d9cd, 304s) gave the one started second 39–55 µs of CPU per request
 * in 4 rounds of 4 against 23–34 µs, and with the start order swapped the verdict changed sides:
 * where the scheduler put each server's thread weighed more than its code. Pinned, the same pair
 * gave 18.6–24.9 µs against 23.2–28.1 in 3 rounds of 3. Undefined (nothing pinned) with fewer
 * than two CPUs or without `taskset` (util-linux).
 */
export interface Pinning {
  readonly server: string
  readonly client: string
}

const cpuList = (from: number, to: number): string => from === to ? String(from) : `${from}-${to}`

/** The first half of `cpus` CPUs for the servers, the rest for wrk; undefined below two. */
export const splitCpus = (cpus: number): Pinning | undefined => {
  if (cpus < 2) return undefined
  const half = Math.floor(cpus / 2)
  return { server: cpuList(0, half - 1), client: cpuList(half, cpus - 1) }
}

export const findPinning = async (cpus: number): Promise<Pinning | undefined> => {
  try {
    await run("taskset", ["-p", String(process.pid)])
  } catch {
    return undefined
  }
  return splitCpus(cpus)
}

/** Every thread of process `pid` (and those it starts later) on `cpus`. */
export const pinProcess = async (pid: number, cpus: string): Promise<void> => {
  await run("taskset", ["-a", "-p", "-c", cpus, String(pid)])
}

/** Clock ticks of CPU (user + system) used so far by process `pid` (Linux `/proc`), or undefined. */
const cpuTicks = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/** `/proc` counts CPU time in ticks of 1/100 s on Linux. */
const TICK_MICROS = 10_000

export interface WrkTarget {
  readonly name: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  /** The serving process, to read its CPU time. */
  readonly pid?: number
}

/** One wrk run against a target. Two threads: the machine's cores are shared with the server. */
export const wrkOnce = async (target: WrkTarget, options: WrkOptions): Promise<WrkResult> => {
  const args = ["-t", "2", "-c", String(options.connections), "-d", `${options.duration}s`, "--latency"]
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push("-H", `${name}: ${value}`)
  const before = target.pid === undefined ? undefined : cpuTicks(target.pid)
  const [file, ...prefix] = options.pinning === undefined ? ["wrk"] : ["taskset", "-c", options.pinning.client, "wrk"]
  const { stdout } = await run(file!, [...prefix, ...args, target.url], { maxBuffer: 1 << 20 })
  const after = target.pid === undefined ? undefined : cpuTicks(target.pid)
  const result = parseWrk(stdout)
  return before === undefined || after === undefined || result.requests === 0
    ? result
    : { ...result, cpuMicrosPerRequest: ((after - before) * TICK_MICROS) / result.requests }
}

/**
 * Seconds of load each target gets, unmeasured, before it is measured. A server's first seconds
 * under a new path run code the JIT has not optimized yet: a fresh API's first 5 s of 304s
 * answered 31 k req/s, the next ones 40–43 k, and with 3 runs of 5 s that cold one weighed in the
 * median. Both servers get the same warm-up: the figures compare steady states.
 */
export const WARM_UP_SECONDS = 2

/** Seconds of each slice of a paired measurement (`wrkPaired`). */
export const SLICE_SECONDS = 1

/** Slices each target of a pair gets: `runs × duration` seconds of them, at least one. */
export const sliceCount = (options: WrkOptions): number => Math.max(1, Math.round((options.runs * options.duration) / SLICE_SECONDS))

/** Two targets measured side by side: each one's figures, and how the second compares with the first. */
export interface PairedResult {
  /** Medians over the slices. */
  readonly first: WrkResult
  readonly second: WrkResult
  /** Slices measured per target. */
  readonly slices: number
  /** The second's rate over the first's, slice by adjacent slice: median, first and third quartiles. */
  readonly ratio: number
  readonly ratioQuartiles: readonly [number, number]
  /** The first's CPU per request over the second's, slice by slice (undefined without CPU figures). */
  readonly cpuRatio: number | undefined
}

const quartiles = (values: ReadonlyArray<number>): readonly [number, number] => {
  const sorted = [...values].sort((a, b) => a - b)
  const lower = sorted.slice(0, sorted.length >> 1)
  const upper = sorted.slice((sorted.length + 1) >> 1)
  return lower.length === 0 ? [sorted[0]!, sorted[0]!] : [median(lower), median(upper)]
}

const medianResult = (runs: ReadonlyArray<WrkResult>): WrkResult => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  requests: median(runs.map((run) => run.requests)),
  ...(runs.every((run) => run.cpuMicrosPerRequest !== undefined)
    ? { cpuMicrosPerRequest: median(runs.map((run) => run.cpuMicrosPerRequest!)) }
    : {}),
  p50: median(runs.map((run) => run.p50)),
  p99: median(runs.map((run) => run.p99)),
  errors: runs.reduce((sum, run) => sum + run.errors, 0)
})

/** The figures of slices measured in pairs: `first[i]` and `second[i]` ran one after the other. */
export const pairSlices = (first: ReadonlyArray<WrkResult>, second: ReadonlyArray<WrkResult>): PairedResult => {
  const ratios = second.map((slice, i) => slice.requestsPerSecond / first[i]!.requestsPerSecond)
  const cpuRatios = second.every((slice, i) => slice.cpuMicrosPerRequest !== undefined && first[i]!.cpuMicrosPerRequest !== undefined)
    ? second.map((slice, i) => first[i]!.cpuMicrosPerRequest! / slice.cpuMicrosPerRequest!)
    : undefined
  return {
    first: medianResult(first),
    second: medianResult(second),
    slices: second.length,
    ratio: median(ratios),
    ratioQuartiles: quartiles(ratios),
    cpuRatio: cpuRatios === undefined ? undefined : median(cpuRatios)
  }
}

/**
 * Two targets (a bare server and the API answering the same thing), each warmed up
 * (`WARM_UP_SECONDS`), then measured in alternating slices of `SLICE_SECONDS`, `runs × duration`
 * slices each, the order swapped at every slice; the ratio is the median of the ratios of adjacent
 * slices. On this shared machine the same server's rate moves by half from one run of seconds to
 * the next: measured 5 s at a time, one target after the other, one run's ratio of the same two
 * servers ranged over 0.56–1.13, while adjacent 1 s slices see the same moment of the machine.
 */
export const wrkPaired = async (first: WrkTarget, second: WrkTarget, options: WrkOptions): Promise<PairedResult> => {
  for (const target of [first, second]) {
    process.stderr.write(`wrk ${target.name} (warm-up, ${WARM_UP_SECONDS} s)\n`)
    await wrkOnce(target, { ...options, duration: WARM_UP_SECONDS })
  }
  const count = sliceCount(options)
  const slice = { ...options, duration: SLICE_SECONDS }
  const firsts: Array<WrkResult> = []
  const seconds: Array<WrkResult> = []
  process.stderr.write(`wrk ${first.name} / ${second.name} (${count} slices of ${SLICE_SECONDS} s each, alternating)\n`)
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      firsts.push(await wrkOnce(first, slice))
      seconds.push(await wrkOnce(second, slice))
    } else {
      seconds.push(await wrkOnce(second, slice))
      firsts.push(await wrkOnce(first, slice))
    }
  }
  return pairSlices(firsts, seconds)
}
