/**
 * `npm run bench -- --diverse`: the varied-traffic bench of issue 9. Draws the corpora from the
 * served data on a server of its own (stopped before any measurement, so nothing it built or kept
 * helps the servers measured), then for each pool size (`--workers`) measures `--runs` runs
 * (measureRun.ts) and, with `--soak-seconds`, a soak; prints one section per pool size, the scaling
 * with WORKERS, and writes everything to bench/results/<ISO timestamp>-diverse.json.
 */
import { Api, endpointsOf } from "@equides/domain"
import { loadavg } from "node:os"
import { ensureExtract, type Started, startApi, startBare, stop } from "../processes.ts"
import { formatMachine, type Machine, writeResult } from "../report.ts"
import { type Description, getJson } from "../routes.ts"
import { buildCorpora, type CorpusOptions, type Family } from "./corpora.ts"
import { addHistograms, costRows, formatCosts } from "./executionCosts.ts"
import { explorerTwins } from "./explorerTwins.ts"
import { log, measureRun } from "./measureRun.ts"
import { formatScaling, formatWorkers, summarizeWorkers, type WorkersResult } from "./report.ts"
import { routeFamilies } from "./routeFamilies.ts"
import { drawSample, type Sample } from "./sample.ts"
import { soak } from "./soak.ts"

export interface DiverseOptions {
  /** Generator seed and size of the extract, when no data file is given. */
  readonly seed: number
  readonly count: number
  readonly dataFile: string | undefined
  /** The hard extract (see `ensureExtract`) instead of the plain one. */
  readonly racePollution?: number | undefined
  readonly serverEnv: Readonly<Record<string, string>>
  readonly duration: number
  readonly runs: number
  readonly connections: number
  /** Pool sizes to measure, in order; undefined leaves WORKERS unset. */
  readonly workers: ReadonlyArray<number | undefined>
  readonly soakSeconds: number
  /** Ids of the pool (crawler, records, pedigrees); undefined: scaled from 500 000 at 4.45 M. */
  readonly crawl: number | undefined
  /** Paths of each other family, at most. */
  readonly corpus: number
  readonly corpusSeed: number
}

/** Issue 9's crawler: 500 000 distinct ids at 4.45 M records; as many per record at other sizes. */
const CRAWL_AT_FULL_SCALE = 500_000
const PARENTS_AT_FULL_SCALE = 2000
const FULL_SCALE = 4_450_000
const ROWS_KEPT = 50_000

const scaled = (atFullScale: number, records: number, least: number): number =>
  Math.min(records, Math.max(least, Math.round((atFullScale * records) / FULL_SCALE)))

/** The sample the corpora are drawn from, asked of `server`. */
export const drawFrom = async (server: Started, options: Pick<DiverseOptions, "corpusSeed" | "crawl">): Promise<Sample> => {
  const { lignes } = await getJson<{ lignes: number }>(server.baseUrl, "/readyz")
  return drawSample(server.baseUrl, {
    seed: options.corpusSeed,
    ids: options.crawl ?? scaled(CRAWL_AT_FULL_SCALE, lignes, 1000),
    rowsKept: ROWS_KEPT,
    parents: scaled(PARENTS_AT_FULL_SCALE, lignes, 200)
  })
}

/**
 * The varied families: the hand-drawn corpora, then one for every route on the workers they leave
 * out, then the explorer's pages that show a route's answer, on that route's paths.
 */
export const familiesOf = (sample: Sample, description: Description, options: CorpusOptions): Array<Family> => {
  const drawn = buildCorpora(sample, options)
  const api = [...drawn, ...routeFamilies(endpointsOf(Api), description, sample, options, drawn)]
  return [...api, ...explorerTwins(api)]
}

/** The sample and the varied families, asked of `sampler` (a server of their own), which is then stopped. */
export const drawFamilies = async (
  sampler: Started,
  options: Pick<DiverseOptions, "corpusSeed" | "crawl" | "corpus">
): Promise<{ readonly sample: Sample; readonly families: Array<Family> }> => {
  const [sample, description] = await Promise.all([drawFrom(sampler, options), getJson<Description>(sampler.baseUrl, "/openapi.json")]).finally(() => stop(sampler))
  return { sample, families: familiesOf(sample, description, { seed: options.corpusSeed, size: options.corpus }) }
}

const describeCorpora = (families: ReadonlyArray<Family>) =>
  families.map((family) => ({ name: family.name, description: family.description, paths: family.paths.length, first: family.paths.slice(0, 5) }))

export const runDiverse = async (startedAt: Date, machine: Machine, options: DiverseOptions): Promise<void> => {
  const dataFile = options.dataFile ?? (await ensureExtract(options.seed, options.count, options.racePollution))
  log(`drawing the corpora from ${dataFile}, on a server of its own`)
  const sampler = await startApi(dataFile, options.serverEnv)
  const drawStarted = performance.now()
  const { sample, families } = await drawFamilies(sampler, options)
  log(`drawn in ${((performance.now() - drawStarted) / 1000).toFixed(1)} s: ${families.map((f) => `${f.name} ${f.paths.length}`).join(", ")}`)
  const names = families.map((family) => family.name)

  const bare = await startBare()
  const results: Array<WorkersResult> = []
  try {
    for (const workers of options.workers) {
      const runOptions = { dataFile, serverEnv: options.serverEnv, workers, connections: options.connections, duration: options.duration }
      const runs = []
      for (let run = 1; run <= options.runs; run++) {
        log(`\n${workers === undefined ? "WORKERS unset" : `WORKERS=${workers}`}: run ${run}/${options.runs}`)
        runs.push(await measureRun(families, bare, runOptions))
      }
      results.push({ workers, runs, soak: options.soakSeconds > 0 ? await soak(families, options.soakSeconds, runOptions) : undefined })
    }
  } finally {
    await stop(bare)
  }

  const summaries = results.map((result) => summarizeWorkers(result, names))
  const costs = results.map((result) => costRows(endpointsOf(Api), addHistograms(result.runs.map((run) => run.executions))))
  const loadAverageAtEnd = loadavg().map((load) => Math.round(load * 100) / 100)
  const sections = summaries.map((summary, i) =>
    formatWorkers(summary, results[i].soak, names, options.runs, options.connections, machine.cpus) +
    `\n\n### execution cost per route (single executions, ${options.runs} run(s) added; declared at full scale, 1 unit per 0.5 ms; OFF: more than 2× apart)\n\n` +
    formatCosts(costs[i])
  )
  const busy = Math.max(machine.loadAverage[0], loadAverageAtEnd[0]) > machine.cpus / 2
  process.stdout.write(
    `\n${formatMachine(machine)}; at the end ${loadAverageAtEnd.join(" ")}\n` +
      (busy ? `warning: the load average says other work was running: figures are pessimistic\n` : "") +
      `${sample.records} records (${dataFile}); corpora seed ${options.corpusSeed}: ` +
      `${families.map((f) => `${f.name} ${f.paths.length}`).join(", ")}; ${options.duration} s per family and mode\n\n` +
      sections.join("\n\n") +
      (summaries.length > 1 ? `\n\n## scaling with WORKERS (under load)\n\n${formatScaling(summaries, names)}` : "") +
      "\n"
  )
  const file = await writeResult(
    startedAt,
    "-diverse.json",
    JSON.stringify(
      { startedAt, machine, loadAverageAtEnd, options, dataFile, records: sample.records, corpora: describeCorpora(families), summaries, costs, results },
      null,
      2
    )
  )
  process.stdout.write(`\nwritten: ${file}\n`)
}
