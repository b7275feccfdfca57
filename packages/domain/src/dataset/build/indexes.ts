import type { Dictionary, Postings, Vocabulary } from "../columns.ts"
import { foldValue } from "../../text/fold.ts"
import { temporary } from "./growable.ts"

const encoder = new TextEncoder()

/** Strings as a dictionary: their UTF-8 one after the other, and offsets (see `Dictionary`). */
export const dictionaryOf = (values: ReadonlyArray<string>): Dictionary => {
  const encoded = values.map((value) => encoder.encode(value))
  const offsets = new Uint32Array(values.length + 1)
  for (let code = 0; code < encoded.length; code++) offsets[code + 1] = offsets[code] + encoded[code].length
  const bytes = new Uint8Array(offsets[values.length])
  for (let code = 0; code < encoded.length; code++) bytes.set(encoded[code], offsets[code])
  return { bytes, offsets }
}

/** Codes 1.. of `values` in the order of their folded value, ties by code (see `Vocabulary`). */
export const foldedOrder = (values: ReadonlyArray<string>): Uint32Array => {
  const keys = values.map(foldValue)
  const order = Uint32Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => i + 1)
  return order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b))
}

export const vocabularyOf = (values: ReadonlyArray<string>): Vocabulary => ({ values: dictionaryOf(values), folded: foldedOrder(values) })

/** A temporary copy of the first `length` values (a cursor over offsets). */
const temporaryCopy = (values: Uint32Array, length: number): Uint32Array => {
  const copy = temporary(Uint32Array, length)
  copy.set(values.subarray(0, length))
  return copy
}

/** Rows grouped by code with a counting sort: O(rows + codes), rows ascending within a code. */
export const groupByCode = (codes: ArrayLike<number>, codeCount: number): Postings => {
  const offsets = new Uint32Array(codeCount + 1)
  for (let row = 0; row < codes.length; row++) offsets[codes[row] + 1]++
  for (let code = 0; code < codeCount; code++) offsets[code + 1] += offsets[code]
  const cursor = temporaryCopy(offsets, codeCount)
  const rows = new Uint32Array(codes.length)
  for (let row = 0; row < codes.length; row++) rows[cursor[codes[row]]++] = row
  return { offsets, rows }
}

/** Inverts a per-row list (row → keys) into per-key postings, rows visited in `order`. */
export const invert = (perRow: Postings, keyCount: number, order?: Uint32Array): Postings => {
  const offsets = new Uint32Array(keyCount + 1)
  for (let i = 0; i < perRow.rows.length; i++) offsets[perRow.rows[i] + 1]++
  for (let key = 0; key < keyCount; key++) offsets[key + 1] += offsets[key]
  const cursor = temporaryCopy(offsets, keyCount)
  const rows = new Uint32Array(perRow.rows.length)
  const rowCount = perRow.offsets.length - 1
  for (let i = 0; i < rowCount; i++) {
    const row = order === undefined ? i : order[i]
    for (let j = perRow.offsets[row]; j < perRow.offsets[row + 1]; j++) rows[cursor[perRow.rows[j]]++] = row
  }
  return { offsets, rows }
}

/**
 * Like `invert`, for rows whose keys are those of a group they belong to (a name's words are its
 * folded form's): `listOf[row]` is the row's group, `lists` the keys of each group.
 */
export const invertThrough = (listOf: Uint32Array, lists: Postings, keyCount: number, order: Uint32Array): Postings => {
  // Counted per group first: one pass over the rows, one over the groups' keys.
  const groupSize = temporary(Uint32Array, lists.offsets.length - 1)
  for (let row = 0; row < listOf.length; row++) groupSize[listOf[row]]++
  const offsets = new Uint32Array(keyCount + 1)
  for (let list = 0; list < groupSize.length; list++) {
    for (let j = lists.offsets[list]; j < lists.offsets[list + 1]; j++) offsets[lists.rows[j] + 1] += groupSize[list]
  }
  for (let key = 0; key < keyCount; key++) offsets[key + 1] += offsets[key]
  const cursor = temporaryCopy(offsets, keyCount)
  const rows = new Uint32Array(offsets[keyCount])
  for (let i = 0; i < order.length; i++) {
    const row = order[i]
    const list = listOf[row]
    for (let j = lists.offsets[list]; j < lists.offsets[list + 1]; j++) rows[cursor[lists.rows[j]]++] = row
  }
  return { offsets, rows }
}

/** Stable counting sort of `rows` by a small integer key per row (into a temporary array if asked). */
export const sortByKey = (rows: Uint32Array, key: ArrayLike<number>, keyCount: number, transient = false): Uint32Array => {
  const counts = temporary(Uint32Array, keyCount + 1)
  for (let i = 0; i < rows.length; i++) counts[key[rows[i]] + 1]++
  for (let k = 0; k < keyCount; k++) counts[k + 1] += counts[k]
  const out = transient ? temporary(Uint32Array, rows.length) : new Uint32Array(rows.length)
  for (let i = 0; i < rows.length; i++) out[counts[key[rows[i]]]++] = rows[i]
  return out
}

/** 0, 1, … size − 1, in a temporary array. */
export const identity = (size: number): Uint32Array => {
  const rows = temporary(Uint32Array, size)
  for (let i = 0; i < size; i++) rows[i] = i
  return rows
}

export const inverse = (permutation: Uint32Array): Uint32Array => {
  const rank = new Uint32Array(permutation.length)
  for (let i = 0; i < permutation.length; i++) rank[permutation[i]] = i
  return rank
}

/** Rows by birth-year code ascending (code 0, no year, last), ties in file order. */
export const orderByYear = (yearCodes: ArrayLike<number>, yearCount: number): Uint32Array => {
  const lastFirst = temporary(Uint32Array, yearCodes.length)
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
  const descending = temporary(Uint32Array, size)
  for (let row = 0; row < size; row++) {
    const count = progeny.offsets[row + 1] - progeny.offsets[row]
    descending[row] = count
    if (count > max) max = count
  }
  for (let row = 0; row < size; row++) descending[row] = max - descending[row]
  return sortByKey(byName, descending, max + 1, true)
}

/**
 * Direct offspring of each row (as father or mother), each list sorted by birth year ascending
 * (absent last), then folded name, then file order. `yearCodes` are the birth-year dimension's
 * codes (chronological, 0 for no year).
 *
 * Name rank orders by folded name then file order, and is distinct per row: (year, name rank) is
 * the whole order. Each child gets the number `year order × rows + name rank`, so every parent's
 * list sorts as plain numbers (the engine's typed-array sort, no comparator), and the rank gives
 * the row back through `byName`.
 */
export const indexProgeny = (
  pere: Int32Array,
  mere: Int32Array,
  yearCodes: ArrayLike<number>,
  yearCount: number,
  byName: Uint32Array,
  nameRank: Uint32Array
): Postings => {
  const size = pere.length
  const offsets = new Uint32Array(size + 1)
  for (let row = 0; row < size; row++) {
    if (pere[row] >= 0) offsets[pere[row] + 1]++
    if (mere[row] >= 0 && mere[row] !== pere[row]) offsets[mere[row] + 1]++
  }
  for (let row = 0; row < size; row++) offsets[row + 1] += offsets[row]
  const keyOf = (row: number): number => (yearCodes[row] === 0 ? yearCount : yearCodes[row]) * size + nameRank[row]
  const cursor = temporaryCopy(offsets, size)
  const keys = temporary(Float64Array, offsets[size])
  for (let row = 0; row < size; row++) {
    if (pere[row] >= 0) keys[cursor[pere[row]]++] = keyOf(row)
    if (mere[row] >= 0 && mere[row] !== pere[row]) keys[cursor[mere[row]]++] = keyOf(row)
  }
  for (let parent = 0; parent < size; parent++) {
    if (offsets[parent + 1] - offsets[parent] > 1) keys.subarray(offsets[parent], offsets[parent + 1]).sort()
  }
  const rows = new Uint32Array(keys.length)
  for (let i = 0; i < keys.length; i++) rows[i] = byName[keys[i] % size]
  return { offsets, rows }
}
