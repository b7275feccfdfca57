/**
 * Reading the per-code columns of the offspring's index values (`DatasetData.progenyColumns`,
 * built with the Dataset: `dataset/progenyColumns.ts`), for `/v1/equides/{id}/descendance/statistiques`
 * and `/v1/stats/reproducteurs`.
 */
import { lowerBound } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { entryStart, groupValues, type ProgenyColumns, type Summary, summarize } from "../dataset/progenyColumns.ts"
import { idOf } from "./record.ts"

/** The entries of group `g`: its parent's products with a value of the code. */
export const entryCount = (columns: ProgenyColumns, g: number): number => entryStart(columns, g + 1) - entryStart(columns, g)

/** Two rows by the text of their id. */
export const compareIds = (data: DatasetData, a: number, b: number): number => {
  const ia = idOf(data, a)
  const ib = idOf(data, b)
  return ia < ib ? -1 : ia > ib ? 1 : 0
}

/** Group of `parent` among the groups of `code`, or -1 when none of its offspring holds a value. */
export const groupOf = (data: DatasetData, code: number, parent: number): number => {
  const { codeGroups, parents } = data.progenyColumns
  // Parents ascend within a code only.
  const g = codeGroups[code] + lowerBound(parents.subarray(codeGroups[code], codeGroups[code + 1]), parent)
  return g < codeGroups[code + 1] && parents[g] === parent ? g : -1
}

/** The offspring row of entry `i` of group `g`. */
export const entryRow = (data: DatasetData, g: number, i: number): number => {
  const { parents, offspring } = data.progenyColumns
  return data.progeny.rows[data.progeny.offsets[parents[g]] + offspring[i]]
}

/** The value of entry `i` of a group of `code`. */
export const entryValue = (data: DatasetData, code: number, i: number): number => {
  const { valueStart, value, values } = data.progenyColumns
  return values[valueStart[code] + value[i]]
}

let scratch = new Float64Array(256)

/** Mean, median and maximum of group `g` of `code` (as the ranking computed them). */
export const groupSummary = (data: DatasetData, code: number, g: number): Summary => {
  const count = entryCount(data.progenyColumns, g)
  if (scratch.length < count) scratch = new Float64Array(count)
  return summarize(scratch, 0, groupValues(data.progenyColumns, code, g, scratch))
}
