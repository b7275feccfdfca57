/**
 * `npm run bench -- --store redis` (issue 12): what the quota costs on the fast paths with the
 * memory store and with the Redis store, in the same run. Three servers on the same extract (quota
 * off, memory store, Redis store: a `redis-server` started here on a free port), the quota on with
 * an allowance no load reaches, so that every request is admitted and charged; measured: the 304
 * path (answered by the front door) and one ordinary route, the runs interleaved. The extract is
 * small by default (`STORE_BENCH_COUNT`): three full-scale servers would need 3.6 GiB.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { measureSeries, type SeriesOptions, type Summary } from "./load.ts"
import { freePort } from "../packages/server/src/testing/ports.ts"
import { type ApiServer, ensureExtract, memoryOf, type Memory, startApi, stop } from "./processes.ts"
import { formatMachine, type Machine, writeResult } from "./report.ts"
import { benchRoutes, pickValues, type Route } from "./routes.ts"

export interface StoreOptions extends SeriesOptions {
  readonly count: number
  readonly seed: number
  readonly dataFile: string | undefined
  /** The hard extract (see `ensureExtract`) instead of the plain one. */
  readonly racePollution?: number | undefined
  readonly serverEnv: Readonly<Record<string, string>>
}

/** Far above what one client can send in a bench: every request is admitted (and charged). */
const UNREACHED_QUOTA = { RATE_LIMIT_RATE: "1000000000", RATE_LIMIT_BURST: "1000000000" }

/** One line of Redis's reply to `command` (inline protocol), e.g. `INFO stats`. */
const redisInfo = (port: number, section: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`INFO ${section}\r\nQUIT\r\n`))
    let text = ""
    socket.on("data", (chunk) => (text += chunk.toString()))
    socket.once("close", () => resolve(text))
    socket.once("error", reject)
  })

const redisCommands = async (port: number): Promise<number> => Number(/total_commands_processed:(\d+)/.exec(await redisInfo(port, "stats"))?.[1])

const startRedis = async (): Promise<{ readonly port: number; readonly child: ChildProcess }> => {
  const port = await freePort()
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
  child.once("error", (error) => {
    process.stderr.write(`redis-server could not be started (${error.message}): install it with \`apt-get install redis-server\`\n`)
    process.exit(1)
  })
  process.once("exit", () => child.kill("SIGKILL"))
  for (let i = 0; i < 200; i++) {
    if (await redisInfo(port, "server").then((text) => text.includes("redis_version"), () => false)) return { port, child }
    await sleep(25)
  }
  throw new Error("redis-server did not answer")
}

interface StoreRun {
  readonly store: string
  readonly memory: Memory
  readonly routes: ReadonlyArray<{ readonly name: string; readonly summary: Summary }>
}

/** The quota's cost does not grow with the extract: a small one lets the three servers run at once. */
export const STORE_BENCH_COUNT = 30_000

export const runStore = async (startedAt: Date, machine: Machine, options: StoreOptions): Promise<void> => {
  const dataFile = options.dataFile ?? (await ensureExtract(options.seed, options.count, options.racePollution))
  const redis = await startRedis()
  const stores = [
    { store: "quota off", env: { RATE_LIMIT_RATE: "0" } },
    { store: "memory", env: { ...UNREACHED_QUOTA, RATE_LIMIT_STORE: "memory" } },
    { store: "redis", env: { ...UNREACHED_QUOTA, RATE_LIMIT_STORE: `redis://127.0.0.1:${redis.port}` } }
  ]
  const servers: Array<ApiServer> = []
  for (const { store, env } of stores) {
    process.stderr.write(`${store}: starting the API on ${dataFile}\n`)
    servers.push(await startApi(dataFile, { ...options.serverEnv, ...env }))
  }
  // The Redis store connects in the background: let it, and the starts' garbage, settle.
  await sleep(3000)
  const all = await benchRoutes(servers[0].baseUrl, await pickValues(servers[0].baseUrl))
  const measured: ReadonlyArray<Route> = all.filter((route) => route.name === "304 revalidation" || route.name === "fiche")
  for (const [i, server] of servers.entries()) {
    for (const route of measured) {
      const response = await fetch(server.baseUrl + route.path, { headers: { "accept-encoding": "identity", ...route.headers } })
      await response.body?.cancel()
      const quotaHeader = response.headers.get("ratelimit")
      if (i > 0 && quotaHeader === null) throw new Error(`${stores[i].store}: ${route.path} carries no RateLimit header: the quota is not on`)
      process.stderr.write(`${stores[i].store}, ${route.name}: ${response.status}, RateLimit ${quotaHeader ?? "none"}\n`)
    }
  }
  // Every (route, store) pair in one series: the runs interleave, so that the machine's passing
  // load spreads over the three stores instead of spoiling one.
  const targets = measured.flatMap((route) =>
    servers.map((server, i) => ({
      name: `${route.name}, ${stores[i].store}`,
      url: server.baseUrl + route.path,
      ...(route.headers === undefined ? {} : { headers: route.headers })
    }))
  )
  const before = await redisCommands(redis.port)
  const summaries = await measureSeries(targets, options)
  const after = await redisCommands(redis.port)
  const redisRequests = summaries
    .filter((_, t) => t % servers.length === servers.length - 1)
    .reduce((sum, summary) => sum + summary.runs.reduce((total, run) => total + run.requests, 0), 0)
  const runs: Array<StoreRun> = []
  for (const [i, server] of servers.entries()) {
    runs.push({
      store: stores[i].store,
      memory: await memoryOf(server),
      routes: measured.map((route, r) => ({ name: route.name, summary: summaries[r * servers.length + i] }))
    })
  }
  await Promise.all(servers.map(stop))
  redis.child.kill("SIGTERM")
  const redisCommandsPerRequest = (after - before) / redisRequests

  const off = runs[0]
  const lines = [
    formatMachine(machine),
    `${options.connections} connections, ${options.duration} s × ${options.runs} run(s) per route and store (interleaved), medians; three servers on the same extract`,
    "",
    `${"route".padEnd(18)} ${"store".padEnd(10)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"÷ off".padStart(6)} ${"errors".padStart(7)}`
  ]
  for (const [i, { name }] of off.routes.entries()) {
    for (const run of runs) {
      const summary = run.routes[i].summary
      lines.push(
        `${name.padEnd(18)} ${run.store.padEnd(10)} ${summary.requestsPerSecond.toFixed(0).padStart(8)} ${summary.p50.toFixed(2).padStart(7)} ${
          summary.p99.toFixed(2).padStart(7)
        } ${(summary.requestsPerSecond / off.routes[i].summary.requestsPerSecond).toFixed(2).padStart(6)} ${String(summary.errors).padStart(7)}`
      )
    }
  }
  lines.push("")
  for (const run of runs) lines.push(`${run.store.padEnd(10)} RSS after the load ${(run.memory.rss / 2 ** 20).toFixed(0)} MiB`)
  lines.push(`Redis commands per request (Redis store): ${redisCommandsPerRequest.toFixed(4)}`)
  process.stdout.write(`\n${lines.join("\n")}\n`)
  const file = await writeResult(startedAt, "-store.json", JSON.stringify({ startedAt, machine, options, dataFile, runs, redisCommandsPerRequest }, null, 2))
  process.stdout.write(`\nwritten: ${file}\n`)
}
