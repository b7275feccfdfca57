/**
 * Per-code columns of the offspring's index values, grouped by parent: what both
 * `/v1/equides/{id}/descendance/statistiques` and `/v1/stats/reproducteurs` read, built once per
 * Dataset and code on first use (in the thread that runs the query) instead of decoding
 * performances per request.
 *
 * For a code, each offspring holding a value (`indexValue.ts`) is an entry under its `pere` and
 * under its `mere` when that is another row: the same parentage as `DatasetData.progeny`, so a
 * parent's groups count offspring of its `nombre_de_descendants`. Within a group entries are in the
 * served order of the best offspring (value descending, folded name, id), so the top five are the
 * group's first five and its median is read in the middle; each group's summary and the order of
 * all groups for the ranking are computed at build.
 */
import { lowerBound, postingsOf } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { performancesAt } from "../dataset/performances.ts"
import { readValeur, retainedIndex } from "./indexValue.ts"
import { memoPer } from "./memo.ts"
import { idOf } from "./record.ts"

export interface ProgenyColumns {
  /** The code, as the `codes_indice` dictionary writes it. */
  readonly code: string
  /** The discipline most performances listing the retained indices of this code name (ties: value order). */
  readonly discipline: string | undefined
  /** Parents with at least one offspring holding a value, ascending rows; group g is `parents[g]`. */
  readonly parents: Uint32Array
  /** Group g's entries are `start[g]..start[g + 1]`. */
  readonly start: Uint32Array
  /** Entries: the offspring row, its value and its birth year (NO_YEAR when absent). */
  readonly offspring: Uint32Array
  readonly values: Float64Array
  readonly years: Int32Array
  /** Each group's summary over all its entries. */
  readonly moyenne: Float64Array
  readonly mediane: Float64Array
  /** Groups by moyenne descending, entries descending, parent's folded name, parent's id. */
  readonly ranking: Uint32Array
  /** Milliseconds the build took (reported by the caller that triggered it). */
  readonly buildMillis: number
}

/** A mean or median as served: rounded to the hundredth (two halves of a decimal average exactly). */
export const round2 = (value: number): number => Math.round(value * 100) / 100 + 0

/** Rows by folded name, then id: the tie order of the best offspring and of the ranked parents. */
export const compareNomId = (data: DatasetData, a: number, b: number): number => {
  const byName = data.nameKey[a] - data.nameKey[b]
  if (byName !== 0) return byName
  const ia = idOf(data, a)
  const ib = idOf(data, b)
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

export interface Summary {
  readonly moyenne: number
  readonly mediane: number
  readonly maximum: number
}

/** Mean, median and maximum of `count` ≥ 1 values sorted descending from `from`. */
export const summarize = (sorted: ArrayLike<number>, from: number, count: number): Summary => {
  let sum = 0
  for (let i = from; i < from + count; i++) sum += sorted[i]
  const half = from + (count >> 1)
  const mediane = count % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
  return { moyenne: round2(sum / count), mediane: round2(mediane), maximum: sorted[from] }
}

const build = (data: DatasetData, code: number): ProgenyColumns => {
  const started = performance.now()
  const label = data.indice.values[code]
  const carriers = postingsOf(data.indice.rows, code)
  const rows = new Uint32Array(carriers.length)
  const read = new Float64Array(carriers.length)
  const disciplines = new Map<string, number>()
  let n = 0
  for (let i = 0; i < carriers.length; i++) {
    const retained = retainedIndex(performancesAt(data.performances, carriers[i]), label)
    const value = retained === undefined ? undefined : readValeur(retained.index.valeur)
    if (retained === undefined || value === undefined) continue
    rows[n] = carriers[i]
    read[n++] = value
    if (retained.discipline !== undefined) disciplines.set(retained.discipline, (disciplines.get(retained.discipline) ?? 0) + 1)
  }
  const order = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((a, b) => read[b] - read[a] || compareNomId(data, rows[a], rows[b]))

  // Groups by parent: counted, then filled in the offspring's order (a counting sort).
  const pere = data.links.pere.row
  const mere = data.links.mere.row
  const cursor = new Uint32Array(data.size)
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    if (pere[row] >= 0) cursor[pere[row]]++
    if (mere[row] >= 0 && mere[row] !== pere[row]) cursor[mere[row]]++
  }
  let groups = 0
  for (let row = 0; row < data.size; row++) if (cursor[row] > 0) groups++
  const parents = new Uint32Array(groups)
  const start = new Uint32Array(groups + 1)
  for (let row = 0, g = 0; row < data.size; row++) {
    const count = cursor[row]
    if (count === 0) continue
    parents[g] = row
    start[g + 1] = start[g] + count
    cursor[row] = start[g++]
  }
  const entries = start[groups]
  const offspring = new Uint32Array(entries)
  const values = new Float64Array(entries)
  const years = new Int32Array(entries)
  const place = (parent: number, row: number, value: number): void => {
    const at = cursor[parent]++
    offspring[at] = row
    values[at] = value
    years[at] = data.year[row]
  }
  for (const i of order) {
    const row = rows[i]
    if (pere[row] >= 0) place(pere[row], row, read[i])
    if (mere[row] >= 0 && mere[row] !== pere[row]) place(mere[row], row, read[i])
  }

  const moyenne = new Float64Array(groups)
  const mediane = new Float64Array(groups)
  for (let g = 0; g < groups; g++) {
    const summary = summarize(values, start[g], start[g + 1] - start[g])
    moyenne[g] = summary.moyenne
    mediane[g] = summary.mediane
  }
  const ranking = new Uint32Array(groups)
  for (let g = 0; g < groups; g++) ranking[g] = g
  ranking.sort((a, b) =>
    moyenne[b] - moyenne[a] || (start[b + 1] - start[b]) - (start[a + 1] - start[a]) || compareNomId(data, parents[a], parents[b])
  )

  let discipline: string | undefined
  let most = 0
  for (const [name, count] of disciplines) {
    if (count > most || (count === most && discipline !== undefined && name < discipline)) {
      discipline = name
      most = count
    }
  }
  return {
    code: label,
    discipline,
    parents,
    start,
    offspring,
    values,
    years,
    moyenne,
    mediane,
    ranking,
    buildMillis: performance.now() - started
  }
}

const cache = memoPer<DatasetData, number, ProgenyColumns>()

/** The columns of `code` (a code of `data.indice`, ≥ 1), built on first use then shared: do not mutate. */
export const progenyColumns = (data: DatasetData, code: number): ProgenyColumns => cache(data, code, () => build(data, code))

/** Group of `parent` in `columns`, or -1 when none of its offspring holds a value. */
export const groupOf = (columns: ProgenyColumns, parent: number): number => {
  const g = lowerBound(columns.parents, parent)
  return g < columns.parents.length && columns.parents[g] === parent ? g : -1
}
