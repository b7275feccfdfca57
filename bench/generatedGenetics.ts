/**
 * The inbreeding of a generated extract, by breed (issue 27 item 6, reported in docs/genetics.md):
 * `npx node --experimental-strip-types bench/generatedGenetics.ts FILE` ingests FILE (written by
 * `npm run ingest -- generate`) with the genetics phase, then prints, for every breed with at least
 * 1 000 records, its mean F, shares with F = 0 and F ≥ 1/8, mean t, the mean F of the foals of
 * 1989–92 (Moureaux et al. 1996) and of 2020–24, and Ne of 2020–24 (design §6), as a Markdown table.
 */
import * as Effect from "effect/Effect"
import { performance } from "node:perf_hooks"
import { dictionarySize, dictionaryValue } from "../packages/domain/src/dataset/columns.ts"
import { equivalentGenerationsOf, inbreedingOf } from "../packages/domain/src/genetics/columns.ts"
import { effectiveSize, individualIncrease } from "../packages/domain/src/genetics/trend.ts"
import { ingestSource } from "../packages/ingest/src/load/loadDataset.ts"

const file = process.argv[2]
if (file === undefined) throw new Error("usage: generatedGenetics.ts FILE")
let geneticsStarted = 0
// The genetics phase is the load's last: it ends when the Dataset is returned.
const { data } = await Effect.runPromise(ingestSource(file, {
  onPhase: (phase) => {
    if (phase === "genetics") geneticsStarted = performance.now()
  }
}))
const geneticsMs = performance.now() - geneticsStarted
const n = data.year.length

interface Group { count: number; f: number; zero: number; eighth: number; t: number; old: number; oldF: number; recent: number; recentF: number; deep: number; increase: number }
const group = (): Group => ({ count: 0, f: 0, zero: 0, eighth: 0, t: 0, old: 0, oldF: 0, recent: 0, recentF: 0, deep: 0, increase: 0 })
const all = group()
const byBreed = Array.from({ length: dictionarySize(data.race.values) }, group)
for (let row = 0; row < n; row++) {
  for (const g of [all, byBreed[data.race.codes[row]]]) {
    const f = inbreedingOf(data.genetics, row)
    const y = data.year[row]
    g.count++
    g.f += f
    if (f === 0) g.zero++
    if (f >= 1 / 8) g.eighth++
    g.t += equivalentGenerationsOf(data.genetics, row)
    if (y >= 1989 && y <= 1992) { g.old++; g.oldF += f }
    if (y >= 2020 && y <= 2024) {
      g.recent++
      g.recentF += f
      const increase = individualIncrease(f, equivalentGenerationsOf(data.genetics, row))
      if (increase !== null) { g.deep++; g.increase += increase }
    }
  }
}
const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)} %`
const line = (label: string, g: Group) =>
  `| ${label} | ${g.count.toLocaleString("en")} | ${pct(g.f / g.count)} | ${pct(g.zero / g.count, 1)} | ${pct(g.eighth / g.count)} | ${(g.t / g.count).toFixed(2)} | ${g.old === 0 ? "–" : pct(g.oldF / g.old)} | ${g.recent === 0 ? "–" : pct(g.recentF / g.recent)} | ${effectiveSize(g.increase, g.deep)?.toFixed(0) ?? "–"} |`
process.stdout.write(`records ${n}, genetics phase ${(geneticsMs / 1000).toFixed(1)} s\n\n`)
process.stdout.write("| race | records | mean F | F = 0 | F ≥ 12.5 % | mean t | mean F 1989–92 | mean F 2020–24 | Ne 2020–24 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
process.stdout.write(line("all", all) + "\n")
const order = byBreed.map((g, code) => ({ g, label: dictionaryValue(data.race.values, code) })).filter(({ g }) => g.count >= 1000).sort((a, b) => b.g.count - a.g.count)
for (const { g, label } of order) process.stdout.write(line(label === "" ? "(no race)" : label, g) + "\n")
