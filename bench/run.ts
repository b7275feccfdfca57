/**
 * `npm run bench -- [options]`: the performance bench of design 5. Generates (once, cached) a
 * seeded extract, starts the API on it and a bare node:http baseline, measures every route of the
 * API (derived from its definition, `routes.ts`) with autocannon, prints one table and writes it to
 * bench/results/<ISO timestamp>.json.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { parseArgs } from "node:util"
import { measureSeries, type Summary } from "./load.ts"
import { type ApiServer, ensureExtract, memoryOf, startApi, startBare, stop } from "./processes.ts"
import {
  type Baseline,
  baselineFor,
  describeMachine,
  formatMachine,
  formatRoutes,
  formatServer,
  judge,
  type Machine,
  SIZED_BASELINE_ABOVE,
  writeResult
} from "./report.ts"
import { describeMethod, measureAnswerPaths, runAnswerPaths } from "./answerPaths.ts"
import { runDiverse } from "./diverse/run.ts"
import { runFairness } from "./fairness/run.ts"
import { benchRoutes, pickValues, probe, type Route } from "./routes.ts"
import { runScaling, SCALING_COUNTS } from "./scaling.ts"
import { HARD_RACE_POLLUTION, runStarts } from "./starts.ts"
import { runStore, STORE_BENCH_COUNT } from "./store.ts"

const USAGE = `usage: npm run bench -- [options]

  --count N            records of the generated extract (default 4450000); cached in bench/cache/
  --seed N             generator seed (default 1)
  --race-pollution N   the hard extract instead: race polluted N times as much as the registry's (race
                       times with their own codes; 30: about 352 000 distinct values at 4.45 M);
                       cached in bench/cache/ as equides-seedS-COUNT-raceN.jsonl
  --data-file FILE     serve FILE instead of a generated extract (any file DATA_FILE accepts)
  --server-env K=V     extra environment for the server, repeatable (e.g. LOG_LEVEL=warn, or the
                       variable that points the server at a prepared snapshot)
  --duration S         seconds per measurement (default 10)
  --runs N             measurements per route; the median is reported (default 3)
  --connections N      concurrent connections (default 50)
  --warmup S           unrecorded seconds of load per route before measuring (default 1; 0: none)
  --scaling            start time, RSS and the heaviest queries at several sizes instead
  --starts             start and memory only (no load): --runs starts from the snapshot of the extract
                       and of its hard twin (--race-pollution, default 30), WORKERS=2; per start the
                       time to /readyz 200, resident memory and heap 5 s later; medians
  --counts A,B,…       sizes for --scaling (default ${SCALING_COUNTS.join(",")})

  --answer-paths       only the wrk section (run at the end of the default bench too): a 304 and a kept
                       response against a bare node:http answering the same, and executed lookups
                       (record, pedigree, descendance, default page) with the response cache off
                       against a bare answer of the same size; needs wrk (apt-get install wrk); each
                       pair in alternating 1 s slices, --runs × --duration of them each, the ratio
                       the median of adjacent slices' ratios

  --store redis        the quota's stores instead (issue 12): the 304 path and one record with the quota
                       off, with the memory store and with a Redis store (a redis-server started on a
                       free port), three servers at once, runs interleaved, the quota on but never
                       reached; --count defaults to ${STORE_BENCH_COUNT} here
  --diverse            varied traffic instead (issues 9, 24): every request a different URI drawn from the
                       served data, per family (records, pedigrees, progeny, lists, suggestions,
                       breakdowns, statistics, consanguinity 8 and 12, matings, the explorer's pages,
                       and one for every other route that runs on the workers, from its definition):
                       single executions (1 connection, response cache off, each family's first 50
                       requests apart; then each route's measured execution time beside its declared
                       cost), then --connections with the cache on and /healthz probed meanwhile; no warm-up
  --fairness           issue 24 item 5 instead: one server per run with the quota and the response cache as
                       deployed; a measured caller (127.0.0.1) sends varied list pages one at a time, paced
                       within its quota, for --duration unloaded, then again (fresh URIs) while a loaded
                       caller (127.0.0.2) sends explorer list pages, /explorer/stats, breakdowns and
                       12-generation consanguinity over --connections, each connection waiting out a 429's
                       Retry-After (--flood: sending on at once); /healthz probed
                       (127.0.0.3) meanwhile; the list p99 loaded / unloaded against ≤ 2, the probes
                       against p99 ≤ 10 ms and max ≤ 50 ms; --workers takes one value here (default 2)
  --workers N[,N…]     WORKERS for the server, repeatable (e.g. --workers 1,2,2): one section per value
                       and a scaling table (default: WORKERS left unset)
  --soak-seconds S     also S seconds of mixed varied load on a fresh server, then its memory (default 0)
  --crawl N            distinct ids of the crawler (and of the families asking each id once)
                       (default 500000 at 4.45 M records, as many per record at other sizes)
  --corpus N           paths of each other family, at most (default 100000)
  --corpus-seed N      seed of the corpora (default 1)

  Quick run: npm run bench -- --count 30000 --duration 2 --runs 1
`

class UsageError extends Error {}

const number = (name: string, text: string | undefined, fallback: number, min: number): number => {
  if (text === undefined) return fallback
  const value = Number(text.replaceAll("_", ""))
  if (!Number.isFinite(value) || value < min) throw new UsageError(`--${name} must be a number ≥ ${min}, got "${text}"`)
  return value
}

const parseOptions = (argv: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      count: { type: "string" },
      seed: { type: "string" },
      "race-pollution": { type: "string" },
      "data-file": { type: "string" },
      "server-env": { type: "string", multiple: true },
      duration: { type: "string" },
      runs: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      scaling: { type: "boolean" },
      starts: { type: "boolean" },
      counts: { type: "string" },
      diverse: { type: "boolean" },
      fairness: { type: "boolean" },
      flood: { type: "boolean" },
      "answer-paths": { type: "boolean" },
      store: { type: "string" },
      workers: { type: "string", multiple: true },
      "soak-seconds": { type: "string" },
      crawl: { type: "string" },
      corpus: { type: "string" },
      "corpus-seed": { type: "string" },
      help: { type: "boolean", short: "h" }
    }
  })
  const serverEnv: Record<string, string> = {}
  for (const pair of values["server-env"] ?? []) {
    const at = pair.indexOf("=")
    if (at <= 0) throw new UsageError(`--server-env takes NAME=VALUE, got "${pair}"`)
    serverEnv[pair.slice(0, at)] = pair.slice(at + 1)
  }
  const diverse = values.diverse === true
  if (diverse && values.warmup !== undefined) throw new UsageError("--diverse measures from a fresh start: --warmup does not apply")
  if (diverse && values.scaling === true) throw new UsageError("--diverse and --scaling are separate benches: choose one")
  if (values.store !== undefined && values.store !== "redis") throw new UsageError(`--store takes redis (compared with memory), got "${values.store}"`)
  if (values.store !== undefined && (diverse || values.scaling === true)) throw new UsageError("--store is a bench of its own: not with --diverse or --scaling")
  const fairness = values.fairness === true
  if (fairness && (diverse || values.scaling === true || values.store !== undefined || values["answer-paths"] === true)) {
    throw new UsageError("--fairness is a bench of its own: not with --diverse, --scaling, --store or --answer-paths")
  }
  if (fairness && values.warmup !== undefined) throw new UsageError("--fairness warms its server up itself: --warmup does not apply")
  const starts = values.starts === true
  if (starts && (diverse || values.scaling === true || values.store !== undefined || values["answer-paths"] === true)) {
    throw new UsageError("--starts is a bench of its own: not with --diverse, --scaling, --store or --answer-paths")
  }
  const workers = (values.workers ?? []).flatMap((list) => list.split(",")).map((text) => Math.floor(number("workers", text, 0, 0)))
  if (fairness && workers.length > 1) throw new UsageError("--fairness measures one pool size: give --workers one value")
  return {
    help: values.help === true,
    count: Math.floor(number("count", values.count, values.store === undefined ? 4_450_000 : STORE_BENCH_COUNT, 1)),
    seed: Math.floor(number("seed", values.seed, 1, 0)),
    dataFile: values["data-file"],
    racePollution: values["race-pollution"] === undefined ? undefined : number("race-pollution", values["race-pollution"], 0, 0),
    starts,
    serverEnv,
    duration: number("duration", values.duration, 10, 1),
    runs: Math.floor(number("runs", values.runs, 3, 1)),
    connections: Math.floor(number("connections", values.connections, 50, 1)),
    warmup: number("warmup", values.warmup, 1, 0),
    scaling: values.scaling === true,
    counts: values.counts?.split(",").map((text) => Math.floor(number("counts", text, 0, 1))) ?? SCALING_COUNTS,
    diverse,
    fairness,
    fairnessWorkers: workers[0] ?? 2,
    flood: values.flood === true,
    answerPaths: values["answer-paths"] === true,
    store: values.store === "redis",
    workers: workers.length === 0 ? [undefined] : workers,
    soakSeconds: number("soak-seconds", values["soak-seconds"], 0, 0),
    crawl: values.crawl === undefined ? undefined : Math.floor(number("crawl", values.crawl, 0, 1)),
    corpus: Math.floor(number("corpus", values.corpus, 100_000, 1)),
    corpusSeed: Math.floor(number("corpus-seed", values["corpus-seed"], 1, 0))
  }
}

type Options = ReturnType<typeof parseOptions>

const bench = async (startedAt: Date, machine: Machine, options: Options): Promise<void> => {
  const dataFile = options.dataFile ?? (await ensureExtract(options.seed, options.count, options.racePollution))
  const bare = await startBare()
  process.stderr.write(`starting the API on ${dataFile}\n`)
  const server = await startApi(dataFile, options.serverEnv)
  process.stderr.write(`ready in ${(server.startToReadyMs / 1000).toFixed(2)} s\n`)
  await sleep(3000)
  const memoryAfterStart = await memoryOf(server)

  const picks = await pickValues(server.baseUrl)
  const routes = await benchRoutes(server.baseUrl, picks)
  const bytes = await Promise.all(routes.map((route) => probe(server.baseUrl + route.path, route.headers)))
  const bareTargets = [
    { name: "bare node:http", url: bare.baseUrl },
    ...[...new Set(bytes.filter((size) => size > SIZED_BASELINE_ABOVE))].map((size) => ({ name: `bare node:http, ${size} B`, url: `${bare.baseUrl}/?bytes=${size}` }))
  ]
  const bareBytes = await Promise.all(bareTargets.map((target) => probe(target.url)))
  const targetsOn = (api: ApiServer, measured: ReadonlyArray<Route>) =>
    measured.map((route) => ({ name: route.name, url: api.baseUrl + route.path, ...(route.headers === undefined ? {} : { headers: route.headers }) }))
  const summaries = await measureSeries([...bareTargets, ...targetsOn(server, routes)], options)
  const baselines: ReadonlyArray<Baseline> = bareTargets.map((_, i) => ({ bytes: bareBytes[i], summary: summaries[i] }))
  const judged = (measured: ReadonlyArray<Route>, results: ReadonlyArray<Summary>) =>
    measured.map((route, i) => {
      const size = bytes[routes.indexOf(route)]
      return judge(route, size, results[i], baselineFor(size, baselines))
    })
  const rows = judged(routes, summaries.slice(bareTargets.length))

  await sleep(2000)
  const memoryAfterLoad = await memoryOf(server)
  await stop(server)

  // What a request costs when it executes: the same routes (a 304 never executes) on a server
  // whose response cache is off, against the same baselines.
  process.stderr.write("\nthe same routes with the response cache off (every request executes)\n")
  const uncachedServer = await startApi(dataFile, { ...options.serverEnv, RESPONSE_CACHE_MB: "0" })
  const executing = routes.filter((route) => route.kind !== "revalidation")
  const uncached = judged(executing, await measureSeries(targetsOn(uncachedServer, executing), options))
  await Promise.all([stop(uncachedServer), stop(bare)])

  const answerPaths = await measureAnswerPaths({ ...options, dataFile })

  const serverFacts = { dataFile, records: picks.records, startToReadyMs: server.startToReadyMs, memoryAfterStart, memoryAfterLoad }
  process.stdout.write(
    `\n${formatMachine(machine)}\n${options.connections} connections, ${options.duration} s × ${options.runs} run(s) per route, medians\n\n` +
      `${formatRoutes(baselines, rows)}\n\nwith the response cache off (RESPONSE_CACHE_MB=0: every request executes)\n\n` +
      `${formatRoutes(baselines, uncached)}\n\n` +
      (answerPaths === undefined ? "" : `measured with ${describeMethod(options, answerPaths.pinning)}\n\n${answerPaths.text}\n\n`) +
      `${formatServer(serverFacts)}\n`
  )
  const file = await writeResult(
    startedAt,
    ".json",
    JSON.stringify({ startedAt, machine, options, server: serverFacts, picks, baselines, routes: rows, uncached, answerPaths: answerPaths?.rows }, null, 2)
  )
  process.stdout.write(`\nwritten: ${file}\n`)
}

const main = async (): Promise<number> => {
  let options: Options
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (options.help) {
    process.stdout.write(USAGE)
    return 0
  }
  const startedAt = new Date()
  const machine = describeMachine()
  if (machine.loadAverage[0] > machine.cpus / 2) {
    process.stderr.write(`warning: load average ${machine.loadAverage[0]} on ${machine.cpus} CPUs: other work will skew the results\n`)
  }
  if (options.starts) await runStarts(startedAt, machine, { ...options, racePollution: options.racePollution ?? HARD_RACE_POLLUTION })
  else if (options.scaling) await runScaling(startedAt, machine, options)
  else if (options.diverse) await runDiverse(startedAt, machine, options)
  else if (options.fairness) await runFairness(startedAt, machine, { ...options, workers: options.fairnessWorkers })
  else if (options.answerPaths) await runAnswerPaths(startedAt, machine, options)
  else if (options.store) await runStore(startedAt, machine, options)
  else await bench(startedAt, machine, options)
  return 0
}

try {
  process.exitCode = await main()
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  // Exiting kills the children still running (see processes.ts).
  process.exit(1)
}
