import type { Postings } from "../columns.ts"
import { foldWords } from "../../text/fold.ts"
import { NO_YEAR } from "../DatasetData.ts"

/** Rows grouped by code with a counting sort: O(rows + codes), rows ascending within a code. */
export const groupByCode = (codes: ArrayLike<number>, codeCount: number): Postings => {
  const offsets = new Uint32Array(codeCount + 1)
  for (let row = 0; row < codes.length; row++) offsets[codes[row] + 1]++
  for (let code = 0; code < codeCount; code++) offsets[code + 1] += offsets[code]
  const cursor = offsets.slice(0, codeCount)
  const rows = new Uint32Array(codes.length)
  for (let row = 0; row < codes.length; row++) rows[cursor[codes[row]]++] = row
  return { offsets, rows }
}

/** Inverts a per-row list (row → keys) into per-key postings, rows visited in `order`. */
export const invert = (perRow: Postings, keyCount: number, order?: Uint32Array): Postings => {
  const offsets = new Uint32Array(keyCount + 1)
  for (let i = 0; i < perRow.rows.length; i++) offsets[perRow.rows[i] + 1]++
  for (let key = 0; key < keyCount; key++) offsets[key + 1] += offsets[key]
  const cursor = offsets.slice(0, keyCount)
  const rows = new Uint32Array(perRow.rows.length)
  const rowCount = perRow.offsets.length - 1
  for (let i = 0; i < rowCount; i++) {
    const row = order === undefined ? i : order[i]
    for (let j = perRow.offsets[row]; j < perRow.offsets[row + 1]; j++) rows[cursor[perRow.rows[j]]++] = row
  }
  return { offsets, rows }
}

/** Stable counting sort of `rows` by a small integer key per row. */
const sortByKey = (rows: Uint32Array, key: ArrayLike<number>, keyCount: number): Uint32Array => {
  const counts = new Uint32Array(keyCount + 1)
  for (let i = 0; i < rows.length; i++) counts[key[rows[i]] + 1]++
  for (let k = 0; k < keyCount; k++) counts[k + 1] += counts[k]
  const out = new Uint32Array(rows.length)
  for (let i = 0; i < rows.length; i++) out[counts[key[rows[i]]]++] = rows[i]
  return out
}

const identity = (size: number): Uint32Array => {
  const rows = new Uint32Array(size)
  for (let i = 0; i < size; i++) rows[i] = i
  return rows
}

const inverse = (permutation: Uint32Array): Uint32Array => {
  const rank = new Uint32Array(permutation.length)
  for (let i = 0; i < permutation.length; i++) rank[permutation[i]] = i
  return rank
}

const ASCII_WORDS = /^[A-Z0-9 ]*$/

/**
 * Folded names and their words. Most registry names are already upper-case ASCII with single
 * spaces, so they skip Unicode normalisation.
 */
const foldName = (name: string): Array<string> =>
  ASCII_WORDS.test(name) && !name.includes("  ") && !name.startsWith(" ") && !name.endsWith(" ")
    ? name.length === 0 ? [] : name.split(" ")
    : foldWords(name)

export interface NameIndexes {
  readonly byName: Uint32Array
  readonly nameRank: Uint32Array
  /** Row → token ids, tokens numbered in sorted order. */
  readonly rowTokens: Postings
  readonly tokens: Array<string>
}

/**
 * Sorts distinct folded names with the engine's native string sort (far faster than a comparator
 * over millions of rows), then places rows by a stable counting sort on their name's rank.
 */
export const indexNames = (names: ReadonlyArray<string>): NameIndexes => {
  const size = names.length
  const keyOf = new Map<string, number>()
  const distinctKeys: Array<string> = []
  const rowKey = new Uint32Array(size)
  const tokenIdOf = new Map<string, number>()
  const tokenList: Array<string> = []
  const tokenOffsets = new Uint32Array(size + 1)
  const rowTokenIds: Array<number> = []

  for (let row = 0; row < size; row++) {
    const words = foldName(names[row])
    const key = words.join(" ")
    let k = keyOf.get(key)
    if (k === undefined) {
      k = distinctKeys.length
      distinctKeys.push(key)
      keyOf.set(key, k)
    }
    rowKey[row] = k
    for (let w = 0; w < words.length; w++) {
      let t = tokenIdOf.get(words[w])
      if (t === undefined) {
        t = tokenList.length
        tokenList.push(words[w])
        tokenIdOf.set(words[w], t)
      }
      let seen = false
      for (let j = tokenOffsets[row]; j < rowTokenIds.length; j++) if (rowTokenIds[j] === t) seen = true
      if (!seen) rowTokenIds.push(t)
    }
    tokenOffsets[row + 1] = rowTokenIds.length
  }

  const keyRank = rankOfSorted(distinctKeys)
  const rankByRow = new Uint32Array(size)
  for (let row = 0; row < size; row++) rankByRow[row] = keyRank[rowKey[row]]
  const byName = sortByKey(identity(size), rankByRow, distinctKeys.length)

  const tokenRank = rankOfSorted(tokenList)
  const tokens = new Array<string>(tokenList.length)
  for (let t = 0; t < tokenList.length; t++) tokens[tokenRank[t]] = tokenList[t]
  const rowTokens = new Uint32Array(rowTokenIds.length)
  for (let i = 0; i < rowTokenIds.length; i++) rowTokens[i] = tokenRank[rowTokenIds[i]]

  return { byName, nameRank: inverse(byName), rowTokens: { offsets: tokenOffsets, rows: rowTokens }, tokens }
}

/** For each string of `values` (distinct), its position in code-unit order. */
const rankOfSorted = (values: ReadonlyArray<string>): Uint32Array => {
  const sorted = [...values].sort()
  const position = new Map<string, number>()
  for (let i = 0; i < sorted.length; i++) position.set(sorted[i], i)
  const rank = new Uint32Array(values.length)
  for (let i = 0; i < values.length; i++) rank[i] = position.get(values[i]) ?? 0
  return rank
}

/** Rows by birth-year code ascending (code 0, no year, last), ties in file order. */
export const orderByYear = (yearCodes: ArrayLike<number>, yearCount: number): Uint32Array => {
  const lastFirst = new Uint32Array(yearCodes.length)
  // Shift codes so that "no year" (code 0) sorts after every real year.
  for (let row = 0; row < yearCodes.length; row++) lastFirst[row] = yearCodes[row] === 0 ? yearCount - 1 : yearCodes[row] - 1
  return sortByKey(identity(yearCodes.length), lastFirst, yearCount)
}

/**
 * Fame order, used by suggestions: most direct offspring first, then folded name, then file
 * order; a stable counting sort by offspring count over the name order gives exactly that.
 */
export const orderByFame = (byName: Uint32Array, progeny: Postings): Uint32Array => {
  const size = byName.length
  let max = 0
  const descending = new Uint32Array(size)
  for (let row = 0; row < size; row++) {
    const count = progeny.offsets[row + 1] - progeny.offsets[row]
    descending[row] = count
    if (count > max) max = count
  }
  for (let row = 0; row < size; row++) descending[row] = max - descending[row]
  return sortByKey(byName, descending, max + 1)
}

/**
 * Direct offspring of each row (as father or mother), each list sorted by birth year ascending
 * (absent last), then folded name, then file order.
 */
export const indexProgeny = (pere: Int32Array, mere: Int32Array, year: Int32Array, nameRank: Uint32Array): Postings => {
  const size = pere.length
  const offsets = new Uint32Array(size + 1)
  for (let row = 0; row < size; row++) {
    if (pere[row] >= 0) offsets[pere[row] + 1]++
    if (mere[row] >= 0 && mere[row] !== pere[row]) offsets[mere[row] + 1]++
  }
  for (let row = 0; row < size; row++) offsets[row + 1] += offsets[row]
  const cursor = offsets.slice(0, size)
  const rows = new Uint32Array(offsets[size])
  for (let row = 0; row < size; row++) {
    if (pere[row] >= 0) rows[cursor[pere[row]]++] = row
    if (mere[row] >= 0 && mere[row] !== pere[row]) rows[cursor[mere[row]]++] = row
  }
  const yearKey = (row: number): number => (year[row] === NO_YEAR ? Number.MAX_SAFE_INTEGER : year[row])
  for (let parent = 0; parent < size; parent++) {
    if (offsets[parent + 1] - offsets[parent] > 1) {
      rows
        .subarray(offsets[parent], offsets[parent + 1])
        .sort((a, b) => yearKey(a) - yearKey(b) || nameRank[a] - nameRank[b])
    }
  }
  return { offsets, rows }
}
