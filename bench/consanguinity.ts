/**
 * `node bench/consanguinity.ts FILE [--candidates N] [--deepest N] [--sample N]`: what the
 * consanguinity routes cost when they execute, and what the extract's inbreeding looks like.
 *
 * - Timing: among `--candidates` random records with both parents (seeded), the `--deepest`
 *   whose ancestor graph cut at 12 generations is largest; each is computed once at 8 and once at
 *   12 generations (query and JSON serialisation, as the server executes it) after one unrecorded
 *   pass, in-process: p50, p99 and max of single executions.
 * - Distribution: F at 8 and 12 generations over `--sample` random records with a known pedigree
 *   (at least one parent named): share with F > 0, share with F > 0.125, mean.
 *
 * - Stress: the generated extract starts in 1975, so its pedigrees are shallow (a hundred ancestors
 *   at most within 12 generations). The same timing runs on a closed population of 300 horses per
 *   generation mated at random for 16 generations: every pedigree complete 12 generations back,
 *   every ancestor reached many times (the worst case of a real stud book).
 *
 * FILE is loaded as the server loads it (from FILE.snapshot when it matches). Run it under the
 * machine-wide bench lock: `flock /tmp/equides-bench.lock node … bench/consanguinity.ts FILE`.
 */
import { buildDataset, consanguinite, type DatasetData, foalInbreeding, linkName, type SourceRecord } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import { loadDataset } from "@equides/ingest"
import * as Effect from "effect/Effect"
import { parseArgs } from "node:util"

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { candidates: { type: "string" }, deepest: { type: "string" }, sample: { type: "string" } }
})
const file = positionals[0]
if (file === undefined) {
  process.stderr.write("usage: node bench/consanguinity.ts FILE [--candidates N] [--deepest N] [--sample N]\n")
  process.exit(2)
}
const candidates = Number(values.candidates ?? 200_000)
const deepest = Number(values.deepest ?? 1000)
const sample = Number(values.sample ?? 100_000)

/** A seeded generator (the same rows on every run over the same file). */
let state = 0x9e3779b9
const random = (): number => {
  state = (state + 0x6d2b79f5) | 0
  let t = Math.imul(state ^ (state >>> 15), 1 | state)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]

const started = performance.now()
const data: DatasetData = await Effect.runPromise(loadDataset(file))
process.stdout.write(`${data.size} records loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
const parentage = { sire: data.links.pere.row, dam: data.links.mere.row }

// The deepest pedigrees among random records with both parents.
const graphSize = (row: number): number => {
  const result = consanguinite(data, row, 12)
  return result.ancetres.distincts
}
const pool: Array<{ row: number; size: number }> = []
for (let k = 0; k < candidates; k++) {
  const row = Math.floor(random() * data.size)
  if (parentage.sire[row] >= 0 && parentage.dam[row] >= 0) pool.push({ row, size: 0 })
}
for (const entry of pool) entry.size = graphSize(entry.row)
const chosen = pool.sort((a, b) => b.size - a.size).slice(0, deepest)
process.stdout.write(
  `deepest ${chosen.length} of ${pool.length} records with both parents: ${chosen.at(-1)?.size}–${chosen[0]?.size} distinct ancestors within 12 generations\n`
)

/** Single executions (query and serialisation) over `rows`, after one unrecorded pass. */
const time = (label: string, over: DatasetData, rows: ReadonlyArray<number>): void => {
  for (const generations of [8, 12]) {
    for (const row of rows) JSON.stringify(consanguinite(over, row, generations))
    const times: Array<number> = []
    let commons = 0
    for (const row of rows) {
      const at = performance.now()
      const body = consanguinite(over, row, generations)
      JSON.stringify(body)
      times.push(performance.now() - at)
      commons += body.ancetres_communs.length
    }
    times.sort((a, b) => a - b)
    process.stdout.write(
      `${label}, ${generations} generations: p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms, ` +
        `max ${times[times.length - 1].toFixed(2)} ms; ${(commons / rows.length).toFixed(1)} common ancestors on average\n`
    )
  }
}
time("deepest of the extract", data, chosen.map((entry) => entry.row))

/** A closed population: `size` foals per generation, parents drawn at random from the previous one. */
const closedPopulation = (size: number, generations: number): { data: DatasetData; last: Array<number> } => {
  const records: Array<SourceRecord> = []
  for (let g = 0; g < generations; g++) {
    for (let k = 0; k < size; k++) {
      const i = g * size + k
      const parent = (sex: number) => (g - 1) * size + 2 * Math.floor(random() * (size / 2)) + sex
      records.push({
        id: idN(i),
        nom: `G${g} N${k}`,
        race: "Pur Sang",
        sexe: k % 2 === 0 ? "Male" : "Femelle",
        ...(g === 0 ? {} : { pere: { id: idN(parent(0)) }, mere: { id: idN(parent(1)) } })
      })
    }
  }
  const built = buildDataset(records)
  return { data: built, last: Array.from({ length: 200 }, (_, k) => built.size - 1 - k) }
}
const closed = closedPopulation(300, 16)
time("closed population of 300, complete pedigrees", closed.data, closed.last)

// The distribution of F over records with a known pedigree.
const { mere, pere } = data.links
const known = (row: number) => pere.row[row] >= 0 || linkName(pere, row) !== 0 || mere.row[row] >= 0 || linkName(mere, row) !== 0
const rows: Array<number> = []
for (let tries = 0; rows.length < sample && tries < sample * 100; tries++) {
  const row = Math.floor(random() * data.size)
  if (known(row)) rows.push(row)
}
for (const generations of [8, 12]) {
  let inbred = 0
  let high = 0
  let sum = 0
  for (const row of rows) {
    const f = foalInbreeding(parentage, parentage.sire[row], parentage.dam[row], generations)
    if (f > 0) inbred++
    if (f > 0.125) high++
    sum += f
  }
  const share = (n: number) => `${((100 * n) / rows.length).toFixed(1)} %`
  process.stdout.write(
    `F at ${generations} generations over ${rows.length} random records with a known pedigree: F > 0 ${share(inbred)}, ` +
      `F > 0.125 ${share(high)}, mean ${(sum / rows.length).toFixed(4)}\n`
  )
}
