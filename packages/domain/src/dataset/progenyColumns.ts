/**
 * The offspring's index values grouped by parent, for every index code (issue 29): what
 * `/v1/equides/{id}/descendance/statistiques`, `/v1/stats/reproducteurs` and the explorer's record
 * page read. Built once with the Dataset (`DatasetAssembler.finish`), so they sit in the shared
 * buffer every query thread reads and in the snapshot: no thread builds or keeps its own (each
 * worker built each code it met, 0.3–0.85 s and up to 94 MiB per thread for the 19 codes of the
 * 4.45 M extract).
 *
 * For a code, each offspring holding a value (`query/indexValue.ts`) is an entry under its `pere`
 * and under its `mere` when that is another row: the parentage of `DatasetData.progeny`, so a
 * parent's groups count offspring of its `nombre_de_descendants`. Within a group, entries are in
 * the served order of the best offspring (value descending, folded name, id), so the top five are
 * the group's first five and its median is read in the middle; the order of a code's groups for
 * the ranking (mean descending, entries descending, folded name, id) is computed here.
 *
 * Compact, since they are resident from the start: the offspring's row and year, and each group's
 * mean and median, are not stored. An entry is its offspring's position among the parent's
 * `progeny` postings, the index of its value among the code's distinct values (a few hundred a
 * code: one byte at full scale) and its birth year's `annee` code (one byte); a group is its
 * parent's row, its first entry and its place in the ranking. Means and medians are computed again
 * from the entries when served (a group holds a few thousand entries at most), summed in the one
 * entry order the ranking used, so they are the same.
 */
import { performancesAt } from "./performances.ts"
import { readValeur, retainedIndex } from "../query/indexValue.ts"
import { type Dictionary, type Dimension, dictionarySize, dictionaryValue, dictionaryValues, lowerBound, type Postings, postingsCount } from "./columns.ts"
import type { PerformanceColumn } from "./performances.ts"
import { encodeId, ID_ALPHABET, ID_BYTES } from "./ids.ts"
import { narrow, temporary } from "./build/growable.ts"
import { SEXES } from "../vocabulary.ts"

export interface ProgenyColumns {
  /** Code c of `indice` has groups `codeGroups[c]..codeGroups[c + 1]` (none for code 0). */
  readonly codeGroups: Uint32Array
  /** Per code, the code in `discipline` most performances listing its retained indices name (0: none; ties: code-unit order). */
  readonly disciplines: Uint8Array | Uint16Array | Uint32Array
  /** Code c's distinct values, ascending, are `values[valueStart[c]..valueStart[c + 1]]`. */
  readonly valueStart: Uint32Array
  readonly values: Float64Array
  /** Per group: the parent's row (ascending within a code). */
  readonly parents: Uint32Array
  /**
   * Group g's entries are `entryStart(g)..entryStart(g + 1)`: its block's first entry
   * (`blockStart[g >> GROUP_BLOCK_BITS]`) plus its own offset in the block (`groupStart[g]`, two
   * bytes where a block of 32 groups holds fewer than 65 536 entries, as at full scale).
   */
  readonly blockStart: Uint32Array
  readonly groupStart: Uint8Array | Uint16Array | Uint32Array
  /** Per entry: the offspring's position among its parent's `progeny` postings. */
  readonly offspring: Uint8Array | Uint16Array | Uint32Array
  /** Per entry: the index of its value among its code's values. */
  readonly value: Uint8Array | Uint16Array | Uint32Array
  /**
   * Per entry: the offspring's `annee` code (0: no birth year), which `year` and `annee.codes` hold
   * by row too: a ranking over a range of years reads it in entry order (3 ms for the 574 k
   * entries of BTR), where looking each offspring's year up by row took 22 ms.
   */
  readonly born: Uint8Array | Uint16Array | Uint32Array
  /** Code c's groups in the ranking's order are `ranking[codeGroups[c]..codeGroups[c + 1]]` (group numbers). */
  readonly ranking: Uint32Array
  /**
   * The plain URI's rankings (no breed, no year, `PRODUITS_MIN_DEFAUT` products): for code c and the
   * parent's `sexe` code s (1 to `SEXES.length`), the groups of c's ranking whose parent is of that
   * sex with at least that many products, in its order: `plain[plainStart[k]..plainStart[k + 1]]`,
   * k = c · `SEXES.length` + s − 1.
   */
  readonly plainStart: Uint32Array
  readonly plain: Uint32Array
  /**
   * Every male with offspring by his count of offspring descending, then folded name, then id: the
   * order of `/v1/accouplements/etalons` at one coefficient, which its pages of no relatives are read off.
   */
  readonly stallions: Uint32Array
}

/** `/v1/stats/reproducteurs`' `produits_min` when not given: the plain rankings' minimum. */
export const PRODUITS_MIN_DEFAUT = 5

/** Rows in folded-name order and their ranks, as `DatasetData` has them (the sorts' ties). */
export interface NameOrder {
  readonly size: number
  readonly ids: Uint8Array
  readonly byName: Uint32Array
  readonly nameRank: Uint32Array
  readonly nameKey: Uint32Array
}

/**
 * What the build reads of a Dataset (`DatasetData`'s fields of these names, all computed before
 * these columns in `finish`), and each row's parents (`links.pere.row`, `links.mere.row`).
 */
export interface ProgenySource extends NameOrder {
  /** Row → its `sexe` code (1 to `SEXES.length`; 0: none). */
  readonly sexe: ArrayLike<number>
  readonly performances: PerformanceColumn
  readonly indice: { readonly values: Dictionary; readonly rows: Postings }
  readonly discipline: { readonly values: Dictionary }
  readonly annee: Dimension
  readonly progeny: Postings
  readonly pere: Int32Array
  readonly mere: Int32Array
}

/** A mean or median as served: rounded to the hundredth, so that the binary noise of a sum of decimals neither shows nor splits ties. */
const round2 = (value: number): number => Math.round(value * 100) / 100 + 0

export interface Summary {
  readonly moyenne: number
  readonly mediane: number
  readonly maximum: number
}

/** Mean, median and maximum of `count` ≥ 1 values sorted descending from `from`, summed in that order. */
export const summarize = (sorted: ArrayLike<number>, from: number, count: number): Summary => {
  let sum = 0
  for (let i = from; i < from + count; i++) sum += sorted[i]
  const half = from + (count >> 1)
  const mediane = count % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2
  return { moyenne: round2(sum / count), mediane: round2(mediane), maximum: sorted[from] }
}

/** Groups per block of `ProgenyColumns.blockStart`, as a power of two. */
const GROUP_BLOCK_BITS = 5

/** The first entry of group `g` (`g` = the number of groups: the end of the last). */
export const entryStart = (columns: Pick<ProgenyColumns, "blockStart" | "groupStart">, g: number): number =>
  columns.blockStart[g >>> GROUP_BLOCK_BITS] + columns.groupStart[g]

/** The values of group `g` of `code`, in entry order (descending), into `into` (at least the group's length). */
export const groupValues = (columns: ProgenyColumns, code: number, g: number, into: Float64Array): number => {
  const { value, values } = columns
  const base = columns.valueStart[code]
  const end = entryStart(columns, g + 1)
  let n = 0
  for (let i = entryStart(columns, g); i < end; i++) into[n++] = values[base + value[i]]
  return n
}

/** Each base64url digit's rank in the order of the characters that write it (`-` < `0` < `A` < `_` < `a`). */
const DIGIT_RANK = (() => {
  const digits = Array.from(ID_ALPHABET, (_, d) => d).sort((a, b) => ID_ALPHABET.charCodeAt(a) - ID_ALPHABET.charCodeAt(b))
  const rank = new Uint8Array(64)
  digits.forEach((digit, r) => (rank[digit] = r))
  return rank
})()

/** The first 8 characters of a row's id (its first 6 bytes) as one number in the text's order (exact: 48 bits). */
const idPrefixKey = (ids: Uint8Array, row: number): number => {
  const o = row * ID_BYTES
  const x0 = (ids[o] << 16) | (ids[o + 1] << 8) | ids[o + 2]
  const x1 = (ids[o + 3] << 16) | (ids[o + 4] << 8) | ids[o + 5]
  const r = DIGIT_RANK
  const high = (((r[x0 >>> 18] * 64 + r[(x0 >>> 12) & 63]) * 64 + r[(x0 >>> 6) & 63]) * 64) + r[x0 & 63]
  const low = (((r[x1 >>> 18] * 64 + r[(x1 >>> 12) & 63]) * 64 + r[(x1 >>> 6) & 63]) * 64) + r[x1 & 63]
  return high * 16777216 + low
}

const idText = (ids: Uint8Array, row: number): string => encodeId(ids, row * ID_BYTES)

/**
 * The indices 0..n-1 of `rows` (distinct rows) by `ranks` descending, then folded name, then id:
 * the rank and the row's `nameRank` (folded name, then file order) packed in one number (below
 * (top + 1) × size, exact) and sorted as numbers, which a comparator sort of the half million
 * entries of a frequent code took a third of a second to do; then only the runs of one rank and
 * one folded name, few, are put in id order (by the first 8 characters of the id as one number,
 * their text made only where those agree). `atRow` is scratch of `size` (row → its index).
 */
export const byDescendingThenName = (
  data: NameOrder,
  rows: Uint32Array,
  ranks: ArrayLike<number>,
  atRow: Uint32Array
): Uint32Array => {
  const n = rows.length
  let top = 0
  for (let i = 0; i < n; i++) if (ranks[i] > top) top = ranks[i]
  const keys = new Float64Array(n)
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
      const run = Array.from(order.subarray(j, k), (i) => ({ i, key: idPrefixKey(data.ids, rows[i]) }))
      run.sort((a, b) => {
        if (a.key !== b.key) return a.key - b.key
        const ia = idText(data.ids, rows[a.i])
        const ib = idText(data.ids, rows[b.i])
        return ia < ib ? -1 : ia > ib ? 1 : 0
      })
      for (let r = 0; r < run.length; r++) order[j + r] = run[r].i
    }
  }
  return order
}

/** The distinct values of `values`, ascending (a view of a sorted copy). */
const distinctAscending = (values: Float64Array): Float64Array => {
  const distinct = Float64Array.from(values).sort()
  let d = 0
  for (let i = 0; i < distinct.length; i++) if (d === 0 || distinct[i] !== distinct[d - 1]) distinct[d++] = distinct[i]
  return distinct.subarray(0, d)
}

/** Each value's index in `distinct` (ascending, holding every value). */
const ranksIn = (distinct: Float64Array, values: Float64Array): Uint32Array => {
  const ranks = new Uint32Array(values.length)
  for (let i = 0; i < values.length; i++) ranks[i] = lowerBound(distinct, values[i])
  return ranks
}

/** Each value's rank among the distinct values, ascending from 0. */
const denseRanks = (values: Float64Array): Uint32Array => ranksIn(distinctAscending(values), values)

/** One code's columns, before they are laid one after the other. */
interface CodeColumns {
  readonly values: Float64Array
  readonly parents: Uint32Array
  /** Entries per group. */
  readonly counts: Uint32Array
  readonly offspring: Uint32Array
  readonly value: Uint32Array
  readonly born: Uint32Array
  /** Group numbers within the code. */
  readonly ranking: Uint32Array
  readonly discipline: number
}

/** Reads every valued offspring of every code, decoding each row's performances once. */
const readValues = (data: ProgenySource, rowCodes: Postings, codes: number) => {
  const labels = dictionaryValues(data.indice.values)
  const disciplineCodes = new Map(dictionaryValues(data.discipline.values).map((name, code) => [name, code]))
  const disciplineCount = dictionarySize(data.discipline.values)
  const rows = Array.from({ length: codes }, (_, code) => new Uint32Array(postingsCount(data.indice.rows, code)))
  const read = Array.from({ length: codes }, (_, code) => new Float64Array(postingsCount(data.indice.rows, code)))
  const valued = new Uint32Array(codes)
  const disciplineVotes = new Uint32Array(codes * disciplineCount)
  for (let row = 0; row < data.size; row++) {
    const from = rowCodes.offsets[row]
    const to = rowCodes.offsets[row + 1]
    if (from === to) continue
    const performances = performancesAt(data.performances, row)
    for (let j = from; j < to; j++) {
      const code = rowCodes.rows[j]
      const retained = retainedIndex(performances, labels[code])
      const value = retained === undefined ? undefined : readValeur(retained.index.valeur)
      if (retained === undefined || value === undefined) continue
      rows[code][valued[code]] = row
      read[code][valued[code]++] = value
      // Every performance's discipline is in the dictionary; one that were not would count as none.
      const discipline = retained.discipline === undefined ? 0 : (disciplineCodes.get(retained.discipline) ?? 0)
      if (discipline !== 0) disciplineVotes[code * disciplineCount + discipline]++
    }
  }
  const disciplineOf = (code: number): number => {
    let best = 0
    for (let d = 1; d < disciplineCount; d++) {
      const votes = disciplineVotes[code * disciplineCount + d]
      const most = disciplineVotes[code * disciplineCount + best]
      if (votes > most || (votes > 0 && votes === most && dictionaryValue(data.discipline.values, d) < dictionaryValue(data.discipline.values, best))) best = d
    }
    return best
  }
  return { rows, read, valued, disciplineOf }
}

/**
 * Scratch shared by the codes' builds: `cursor` (parent row → entries so far, left at zero),
 * `atRow` (for the sorts), and each row's position among its `pere`'s and its `mere`'s progeny.
 */
const scratchOf = (data: ProgenySource) => {
  const { offsets, rows } = data.progeny
  const pere = data.pere
  const underPere = temporary(Uint32Array, data.size)
  const underMere = temporary(Uint32Array, data.size)
  for (let parent = 0; parent < data.size; parent++) {
    for (let j = offsets[parent]; j < offsets[parent + 1]; j++) {
      const child = rows[j]
      if (pere[child] === parent) underPere[child] = j - offsets[parent]
      else underMere[child] = j - offsets[parent]
    }
  }
  return { cursor: temporary(Uint32Array, data.size), atRow: temporary(Uint32Array, data.size), underPere, underMere }
}

const buildCode = (
  data: ProgenySource,
  scratch: ReturnType<typeof scratchOf>,
  rows: Uint32Array,
  read: Float64Array,
  discipline: number
): CodeColumns => {
  const n = rows.length
  // The code's distinct values, ascending; each offspring's value is its index there.
  const table = distinctAscending(read)
  const value = ranksIn(table, read)
  const order = byDescendingThenName(data, rows, value, scratch.atRow)

  // Groups by parent: counted, then filled in the offspring's order (a counting sort).
  const { pere, mere } = data
  const { cursor, underPere, underMere } = scratch
  const seen: Array<number> = []
  const count = (parent: number): void => {
    if (cursor[parent]++ === 0) seen.push(parent)
  }
  for (let i = 0; i < n; i++) {
    const row = rows[i]
    if (pere[row] >= 0) count(pere[row])
    if (mere[row] >= 0 && mere[row] !== pere[row]) count(mere[row])
  }
  const parents = Uint32Array.from(seen).sort()
  const groups = parents.length
  const counts = new Uint32Array(groups)
  let entries = 0
  for (let g = 0; g < groups; g++) {
    counts[g] = cursor[parents[g]]
    cursor[parents[g]] = entries
    entries += counts[g]
  }
  const offspring = new Uint32Array(entries)
  const entryValue = new Uint32Array(entries)
  const born = new Uint32Array(entries)
  for (const i of order) {
    const row = rows[i]
    if (pere[row] >= 0) {
      const at = cursor[pere[row]]++
      offspring[at] = underPere[row]
      entryValue[at] = value[i]
      born[at] = data.annee.codes[row]
    }
    if (mere[row] >= 0 && mere[row] !== pere[row]) {
      const at = cursor[mere[row]]++
      offspring[at] = underMere[row]
      entryValue[at] = value[i]
      born[at] = data.annee.codes[row]
    }
  }
  for (let g = 0; g < groups; g++) cursor[parents[g]] = 0

  // By mean (as served) descending, then count descending: one number, the mean's rank above the count.
  const moyenne = new Float64Array(groups)
  let largest = 0
  for (let g = 0; g < groups; g++) largest = Math.max(largest, counts[g])
  const scratchValues = new Float64Array(largest)
  for (let g = 0, at = 0; g < groups; at += counts[g++]) {
    for (let i = 0; i < counts[g]; i++) scratchValues[i] = table[entryValue[at + i]]
    moyenne[g] = summarize(scratchValues, 0, counts[g]).moyenne
  }
  const byMean = denseRanks(moyenne)
  const primary = new Float64Array(groups)
  for (let g = 0; g < groups; g++) primary[g] = byMean[g] * (n + 1) + counts[g]
  const ranking = byDescendingThenName(data, parents, denseRanks(primary), scratch.atRow)
  return { values: Float64Array.from(table), parents, counts, offspring, value: entryValue, born, ranking, discipline }
}

/** Each group's first entry as its block's and its offset in the block (see `ProgenyColumns.blockStart`). */
const blocks = (start: Uint32Array): Pick<ProgenyColumns, "blockStart" | "groupStart"> => {
  const blockStart = new Uint32Array(((start.length - 1) >>> GROUP_BLOCK_BITS) + 1)
  for (let b = 0; b < blockStart.length; b++) blockStart[b] = start[b << GROUP_BLOCK_BITS]
  const offsets = new Uint32Array(start.length)
  let widest = 0
  for (let g = 0; g < start.length; g++) {
    offsets[g] = start[g] - blockStart[g >>> GROUP_BLOCK_BITS]
    widest = Math.max(widest, offsets[g])
  }
  return { blockStart, groupStart: narrow(offsets, widest + 1) }
}

/** Lays the codes' columns one after the other, each array as narrow as its values allow. */
type Laid = Omit<ProgenyColumns, "plainStart" | "plain" | "stallions">

const lay = (perCode: ReadonlyArray<CodeColumns | undefined>, disciplineCount: number, yearCount: number, maxProgeny: number): Laid => {
  const codes = perCode.length
  const codeGroups = new Uint32Array(codes + 1)
  const valueStart = new Uint32Array(codes + 1)
  let entries = 0
  let widestValues = 0
  for (let code = 0; code < codes; code++) {
    const c = perCode[code]
    codeGroups[code + 1] = codeGroups[code] + (c?.parents.length ?? 0)
    valueStart[code + 1] = valueStart[code] + (c?.values.length ?? 0)
    entries += c?.offspring.length ?? 0
    widestValues = Math.max(widestValues, c?.values.length ?? 0)
  }
  const groups = codeGroups[codes]
  const values = new Float64Array(valueStart[codes])
  const parents = new Uint32Array(groups)
  const start = new Uint32Array(groups + 1)
  const offspring = new Uint32Array(entries)
  const value = new Uint32Array(entries)
  const born = new Uint32Array(entries)
  const ranking = new Uint32Array(groups)
  const disciplines = new Uint32Array(codes)
  for (let code = 0, at = 0; code < codes; code++) {
    const c = perCode[code]
    if (c === undefined) continue
    const first = codeGroups[code]
    disciplines[code] = c.discipline
    values.set(c.values, valueStart[code])
    parents.set(c.parents, first)
    offspring.set(c.offspring, at)
    value.set(c.value, at)
    born.set(c.born, at)
    for (let g = 0; g < c.parents.length; g++) {
      start[first + g] = at
      at += c.counts[g]
      ranking[first + g] = first + c.ranking[g]
    }
    start[codeGroups[code + 1]] = at
  }
  return {
    codeGroups,
    disciplines: narrow(disciplines, disciplineCount),
    valueStart,
    values,
    parents,
    ...blocks(start),
    offspring: narrow(offspring, maxProgeny),
    value: narrow(value, widestValues),
    born: narrow(born, yearCount),
    ranking
  }
}

/** Every code's columns; `rowCodes` is row → the index codes it carries (what `indice.rows` inverts). */
export const buildProgenyColumns = (data: ProgenySource, rowCodes: Postings): ProgenyColumns => {
  const codes = dictionarySize(data.indice.values)
  const { rows, read, valued, disciplineOf } = readValues(data, rowCodes, codes)
  const scratch = scratchOf(data)
  const perCode: Array<CodeColumns | undefined> = [undefined]
  for (let code = 1; code < codes; code++) {
    perCode.push(buildCode(data, scratch, rows[code].subarray(0, valued[code]), read[code].subarray(0, valued[code]), disciplineOf(code)))
  }
  let maxProgeny = 0
  for (let row = 0; row < data.size; row++) maxProgeny = Math.max(maxProgeny, data.progeny.offsets[row + 1] - data.progeny.offsets[row])
  const laid = lay(perCode, dictionarySize(data.discipline.values), dictionarySize(data.annee.values), maxProgeny)
  return { ...laid, ...plainRankings(laid, data.sexe), stallions: stallionOrder(data, scratch.atRow) }
}

/**
 * `ProgenyColumns.stallions`, sorted as the rankings are (`byDescendingThenName`). Each query thread
 * made it on its first ranking of stallions, in its warm-up before ready: 114–142 ms at 4.45 M records
 * with a comparator sort, 62–66 ms with this one; 0.4 MiB a thread.
 */
const stallionOrder = (data: ProgenySource, atRow: Uint32Array): Uint32Array => {
  const male = SEXES.indexOf("Male") + 1
  const { offsets } = data.progeny
  const rows: Array<number> = []
  const produits: Array<number> = []
  for (let row = 0; row < data.size; row++) {
    const count = offsets[row + 1] - offsets[row]
    if (count === 0 || data.sexe[row] !== male) continue
    rows.push(row)
    produits.push(count)
  }
  const males = Uint32Array.from(rows)
  return byDescendingThenName(data, males, produits, atRow).map((i) => males[i])
}

/**
 * `ProgenyColumns.plain`: one pass over each code's ranking. Made by each query thread on its first
 * plain URI until it was held here: 72–101 ms of each worker's warm-up at 4.45 M records (17 ms
 * once the columns had been read), 0.3 MiB a thread.
 */
const plainRankings = (laid: Laid, sexe: ArrayLike<number>): Pick<ProgenyColumns, "plainStart" | "plain"> => {
  const { codeGroups, parents, ranking } = laid
  const codes = codeGroups.length - 1
  const plainStart = new Uint32Array(codes * SEXES.length + 1)
  const plain: Array<number> = []
  const bySex = SEXES.map((): Array<number> => [])
  for (let code = 0; code < codes; code++) {
    for (const kept of bySex) kept.length = 0
    for (let r = codeGroups[code]; r < codeGroups[code + 1]; r++) {
      const g = ranking[r]
      const parentSexe = sexe[parents[g]]
      if (parentSexe > 0 && entryStart(laid, g + 1) - entryStart(laid, g) >= PRODUITS_MIN_DEFAUT) bySex[parentSexe - 1].push(g)
    }
    for (const [s, kept] of bySex.entries()) {
      for (const g of kept) plain.push(g)
      plainStart[code * SEXES.length + s + 1] = plain.length
    }
  }
  return { plainStart, plain: Uint32Array.from(plain) }
}
