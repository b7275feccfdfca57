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
import { invert } from "../dataset/build/indexes.ts"
import { dictionaryValue, lowerBound, type Postings, postingsOf } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { ID_BYTES } from "../dataset/ids.ts"
import { performancesAt } from "../dataset/performances.ts"
import { readValeur, retainedIndex } from "./indexValue.ts"
import { memoPer } from "./memo.ts"
import { ID_CODES, idOf } from "./record.ts"

export interface ProgenyColumns {
  /** The code, as the `codes_indice` dictionary writes it. */
  readonly code: string
  /** The discipline most performances listing the retained indices of this code name (ties: code-unit order). */
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

/** A mean or median as served: rounded to the hundredth, so that the binary noise of a sum of decimals neither shows nor splits ties. */
export const round2 = (value: number): number => Math.round(value * 100) / 100 + 0

/** Each base64url digit's rank in the order of the characters that write it (`-` < `0` < `A` < `_` < `a`). */
const DIGIT_RANK = (() => {
  const byCharacter = Array.from(ID_CODES.keys()).sort((a, b) => ID_CODES[a] - ID_CODES[b])
  const rank = new Uint8Array(64)
  byCharacter.forEach((digit, r) => (rank[digit] = r))
  return rank
})()

/** The first 8 characters of a row's id (its first 6 bytes) as one number in the text's order (exact: 48 bits). */
const idPrefixKey = (data: DatasetData, row: number): number => {
  const b = data.ids
  const o = row * ID_BYTES
  const x0 = (b[o] << 16) | (b[o + 1] << 8) | b[o + 2]
  const x1 = (b[o + 3] << 16) | (b[o + 4] << 8) | b[o + 5]
  const r = DIGIT_RANK
  const high = (((r[x0 >>> 18] * 64 + r[(x0 >>> 12) & 63]) * 64 + r[(x0 >>> 6) & 63]) * 64) + r[x0 & 63]
  const low = (((r[x1 >>> 18] * 64 + r[(x1 >>> 12) & 63]) * 64 + r[(x1 >>> 6) & 63]) * 64) + r[x1 & 63]
  return high * 16777216 + low
}

/** Two rows by the text of their id. */
export const compareIds = (data: DatasetData, a: number, b: number): number => {
  const ia = idOf(data, a)
  const ib = idOf(data, b)
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

/** Each value's rank among the distinct values, ascending from 0. */
const denseRanks = (values: Float64Array): Uint32Array => {
  const distinct = Float64Array.from(values).sort()
  let d = 0
  for (let i = 0; i < distinct.length; i++) if (d === 0 || distinct[i] !== distinct[d - 1]) distinct[d++] = distinct[i]
  const ranks = new Uint32Array(values.length)
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    let lo = 0
    let hi = d
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (distinct[mid] < value) lo = mid + 1
      else hi = mid
    }
    ranks[i] = lo
  }
  return ranks
}

/**
 * The indices 0..n-1 of `rows` (distinct rows) by `primary` descending, then folded name, then id:
 * the rank of `primary` and the row's `nameRank` (folded name, then file order) packed in one
 * number (below n × size, exact) and sorted as numbers, which a comparator sort of the half million
 * entries of a frequent code took a third of a second to do; then only the runs of one value and
 * one folded name, few, are put in id order (by the first 8 characters of the id as one number,
 * their text made only where those agree).
 */
export const byDescendingThenName = (data: DatasetData, rows: Uint32Array, primary: Float64Array): Uint32Array => {
  const n = rows.length
  const ranks = denseRanks(primary)
  let top = 0
  for (let i = 0; i < n; i++) if (ranks[i] > top) top = ranks[i]
  const keys = new Float64Array(n)
  // Row → its index (a temporary column: 17 MiB at full scale, cheaper than a Map of half a million).
  const atRow = new Uint32Array(data.size)
  for (let i = 0; i < n; i++) {
    keys[i] = (top - ranks[i]) * data.size + data.nameRank[rows[i]]
    atRow[rows[i]] = i
  }
  keys.sort()
  const order = new Uint32Array(n)
  for (let j = 0; j < n; j++) order[j] = atRow[data.byName[keys[j] % data.size]]
  for (let j = 0, k = 1; j < n; j = k, k = j + 1) {
    const rank = ranks[order[j]]
    const name = data.nameKey[rows[order[j]]]
    while (k < n && ranks[order[k]] === rank && data.nameKey[rows[order[k]]] === name) k++
    if (k - j > 1) {
      const run = Array.from(order.subarray(j, k), (i) => ({ i, key: idPrefixKey(data, rows[i]) }))
      run.sort((a, b) => a.key - b.key || compareIds(data, rows[a.i], rows[b.i]))
      for (let r = 0; r < run.length; r++) order[j + r] = run[r].i
    }
  }
  return order
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
  const label = dictionaryValue(data.indice.values, code)
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
  const order = byDescendingThenName(data, rows.subarray(0, n), read.subarray(0, n))

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
  // By mean descending then count descending: one number, the mean's rank above the count.
  const byMean = denseRanks(moyenne)
  const primary = new Float64Array(groups)
  for (let g = 0; g < groups; g++) primary[g] = byMean[g] * (n + 1) + (start[g + 1] - start[g])
  const ranking = byDescendingThenName(data, parents, primary)

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

/** One build of a code's columns, for the log of the thread that made it. */
export interface ColumnsBuild {
  readonly code: string
  readonly millis: number
  readonly entries: number
}

const builds: Array<ColumnsBuild> = []

/** The columns of `code` (a code of `data.indice`, ≥ 1), built on first use then shared: do not mutate. */
export const progenyColumns = (data: DatasetData, code: number): ProgenyColumns =>
  cache(data, code, () => {
    const columns = build(data, code)
    builds.push({ code: columns.code, millis: columns.buildMillis, entries: columns.offspring.length })
    return columns
  })

const rowCodesCache = memoPer<DatasetData, "rowCodes", Postings>()

/**
 * Row → the index codes it carries (`data.indice.rows` inverted), built once per Dataset and
 * thread: a parent's statistics build only the codes its offspring carry (a trotter's two of the
 * nineteen, instead of every code on its first call), and find them in a pass over its offspring.
 */
export const rowCodes = (data: DatasetData): Postings => rowCodesCache(data, "rowCodes", () => invert(data.indice.rows, data.size))

/** The builds this thread made since the last call (the server logs them: the domain does no I/O). */
export const takeColumnsBuilds = (): ReadonlyArray<ColumnsBuild> => builds.splice(0)

/** Group of `parent` in `columns`, or -1 when none of its offspring holds a value. */
export const groupOf = (columns: ProgenyColumns, parent: number): number => {
  const g = lowerBound(columns.parents, parent)
  return g < columns.parents.length && columns.parents[g] === parent ? g : -1
}
