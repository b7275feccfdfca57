/**
 * Times the genetics engine alone (no Dataset, no server) on a synthetic horse-like pedigree:
 * `npx node --experimental-strip-types bench/genetics.ts [records] [ordered|shuffled] [first year]`
 * (default 4 450 000, shuffled, 1975), one run; `ordered` keeps the rows in birth order (parents
 * first); an earlier first year makes a deeper pedigree (1800: 38 generations, t 9.6 on average).
 *
 * The pedigree: births from the first year to 2025 growing towards recent years, ten breeds mating within
 * themselves, sires chosen among the breed's stallions aged 3-22 with a heavy-tailed popularity (a
 * few stallions sire hundreds of foals), dams among mares aged 3-20, parents unknown for a third of
 * the early foals and a few per cent of recent ones. Rows are shuffled so that nothing relies on
 * parents coming first in the file.
 */
import { performance } from "node:perf_hooks"
import { ancestorContributions } from "../packages/domain/src/genetics/ancestors.ts"
import { ancestryOf } from "../packages/domain/src/genetics/ancestry.ts"
import { founderContributions } from "../packages/domain/src/genetics/founders.ts"
import { generationsOf } from "../packages/domain/src/genetics/generations.ts"
import { inbreedingCoefficients } from "../packages/domain/src/genetics/inbreeding.ts"
import { rowPedigree } from "../packages/domain/src/genetics/ordered.ts"
import { pedigreeGraph } from "../packages/domain/src/genetics/pedigreeGraph.ts"
import { groupShares } from "../packages/domain/src/genetics/groupCoancestry.ts"

const size = Number(process.argv[2] ?? 4_450_000)
const FIRST = Number(process.argv[4] ?? 1975)
const LAST = 2025
const BREEDS = 10

let seed = 0x9e3779b9
const random = (): number => {
  // xorshift32
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 4294967296
}

const yearWeight = (y: number): number => 1 + 3 * ((y - FIRST) / (LAST - FIRST)) ** 1.3
let totalWeight = 0
for (let y = FIRST; y <= LAST; y++) totalWeight += yearWeight(y)

const birthSire = new Int32Array(size).fill(-1)
const birthDam = new Int32Array(size).fill(-1)
const breedWeights = [0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.05, 0.03, 0.02, 0.01]
// Per breed and year: stallions (with cumulative popularity) and mares born that year.
const stallions: Array<Array<{ animal: number; weight: number }>> = Array.from({ length: BREEDS * (LAST - FIRST + 1) }, () => [])
const mares: Array<Array<number>> = Array.from({ length: BREEDS * (LAST - FIRST + 1) }, () => [])
const cell = (breed: number, year: number) => breed * (LAST - FIRST + 1) + (year - FIRST)

let animal = 0
let referenceStart = 0
for (let year = FIRST; year <= LAST && animal < size; year++) {
  if (year === LAST - 4) referenceStart = animal
  const births = year === LAST ? size - animal : Math.round((size * yearWeight(year)) / totalWeight)
  const unknown = Math.max(0.03, 0.35 - 0.02 * (year - FIRST))
  for (let breed = 0; breed < BREEDS; breed++) {
    // The sires of the year: every stallion aged 3..22, by cumulative popularity.
    const candidates: Array<{ animal: number; weight: number }> = []
    const dams: Array<Array<number>> = []
    for (let y = year - 22; y <= year - 3; y++) if (y >= FIRST) candidates.push(...stallions[cell(breed, y)])
    for (let y = year - 20; y <= year - 3; y++) if (y >= FIRST && mares[cell(breed, y)].length > 0) dams.push(mares[cell(breed, y)])
    const cumulative = new Float64Array(candidates.length)
    let sum = 0
    candidates.forEach((c, k) => (cumulative[k] = sum += c.weight))
    const count = Math.round(births * breedWeights[breed])
    for (let k = 0; k < count && animal < size; k++, animal++) {
      if (candidates.length > 0 && random() >= unknown) {
        const target = random() * sum
        let lo = 0
        let hi = candidates.length - 1
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (cumulative[mid] < target) lo = mid + 1
          else hi = mid
        }
        birthSire[animal] = candidates[lo].animal
      }
      if (dams.length > 0 && random() >= unknown) {
        const year = dams[Math.floor(random() * dams.length)]
        birthDam[animal] = year[Math.floor(random() * year.length)]
      }
      if (random() < 0.5) mares[cell(breed, year)].push(animal)
      else if (random() < 0.06) stallions[cell(breed, year)].push({ animal, weight: 1 / (0.01 + random()) ** 1.5 })
    }
  }
}
const n = animal
// Shuffled rows, unless asked in birth order.
const rowOf = new Int32Array(n)
for (let b = 0; b < n; b++) rowOf[b] = b
for (let b = process.argv[3] === "ordered" ? 0 : n - 1; b > 0; b--) {
  const k = Math.floor(random() * (b + 1))
  const t = rowOf[b]
  rowOf[b] = rowOf[k]
  rowOf[k] = t
}
const sire = new Int32Array(n)
const dam = new Int32Array(n)
for (let b = 0; b < n; b++) {
  sire[rowOf[b]] = birthSire[b] < 0 ? -1 : rowOf[birthSire[b]]
  dam[rowOf[b]] = birthDam[b] < 0 ? -1 : rowOf[birthDam[b]]
}

const cpu0 = process.cpuUsage()
const t0 = performance.now()
const graph = pedigreeGraph({ sire, dam })
const t1 = performance.now()
const cpu1 = process.cpuUsage(cpu0)
const inbreeding = inbreedingCoefficients(graph)
const t2 = performance.now()
const cpu2 = process.cpuUsage(cpu0)
const generations = generationsOf(graph)
const t3 = performance.now()
const cpu = process.cpuUsage(cpu0)

// As a query worker does: rows with the longest line the load keeps, then for the whole extract's
// reference population (born in the last five years) its shares (the sweep up of the indirect method), f_e, f_a.
const lineByRow = Uint16Array.from(graph.node, (v) => graph.longestLine[v])
const inbreedingByRow = Float32Array.from(graph.node, (v) => inbreeding[v])
const reference = Int32Array.from({ length: n - referenceStart }, (_, k) => rowOf[referenceStart + k])
const t4 = performance.now()
const rows = rowPedigree({ sire, dam }, { longestLine: lineByRow, droppedLinks: graph.droppedLinks })
const shares = groupShares(rows, (row) => inbreedingByRow[row], reference)
const t5 = performance.now()
const fe = founderContributions(ancestryOf(rows, reference))
const t6 = performance.now()
const fa = ancestorContributions(ancestryOf(rows, reference))
const t7 = performance.now()

let inbred = 0
let sumF = 0
let sumT = 0
let deepest = 0
for (let v = 0; v < n; v++) {
  if (inbreeding[v] > 0) inbred++
  sumF += inbreeding[v]
  sumT += generations.equivalent[v]
  if (graph.longestLine[v] > deepest) deepest = graph.longestLine[v]
}
const ms = (a: number, b: number) => `${(b - a).toFixed(0)} ms`
const cpuMs = (c: { user: number; system: number }) => (c.user + c.system) / 1000

process.stdout.write(
  [
    `records ${n}, deepest line ${deepest}, mean F ${(sumF / n).toFixed(5)}, F > 0 ${((100 * inbred) / n).toFixed(1)} %, mean t ${(sumT / n).toFixed(2)}`,
    `graph (cycles, generation order) ${ms(t0, t1)} (CPU ${cpuMs(cpu1).toFixed(0)} ms)`,
    `F (indirect method by sire) ${ms(t1, t2)} (CPU ${(cpuMs(cpu2) - cpuMs(cpu1)).toFixed(0)} ms)`,
    `t, complete generations ${ms(t2, t3)}`,
    `reference population ${reference.length}: its shares (${shares?.values.length ?? 0} animals) ${ms(t4, t5)}, f_e ${fe.effective?.toFixed(1)} ${ms(t5, t6)}, f_a ${fa.effective?.toFixed(1)} (${fa.chosen.length} ancestors, ${(100 * fa.explained).toFixed(1)} % explained) ${ms(t6, t7)}`,
    `total ${ms(t0, t3)} = ${(((t3 - t0) * 1000) / n).toFixed(3)} µs per record (CPU time ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`
  ].join("\n") + "\n"
)
