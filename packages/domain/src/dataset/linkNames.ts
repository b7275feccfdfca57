/**
 * The name each parentage link carries, kept as the exceptions to a rule: a link resolved to a row
 * names its parent as the parent's record does, and a link not resolved carries no name. At
 * 4.45 M rows about a thousand links a column do otherwise (another spelling, a dangling link's
 * name, a resolved link without one): a column of every row's name code cost 4 bytes a record per
 * link (51 MiB for the three), the exceptions 8 bytes each.
 */
import { lowerBound } from "./columns.ts"
import { LINK_NAME_OF_ROW, type LinkColumn, type LinkNameExceptions } from "./DatasetData.ts"

/** The rule's name code of a link resolved to `parent` (negative: not resolved). */
const ruleOf = (parent: number): number => (parent >= 0 ? LINK_NAME_OF_ROW : 0)

/**
 * Code in `Links.names` of the name the link of `row` carries: 0 none, LINK_NAME_OF_ROW the
 * linked row's own `nom`. Every reader of a link's name goes through it.
 */
export const linkName = (column: LinkColumn, row: number): number => {
  const { names, rows } = column.nameExceptions
  const k = lowerBound(rows, row)
  return k < rows.length && rows[k] === row ? names[k] : ruleOf(column.row[row])
}

/** The exceptions to the rule of a column of every row's name code (`names`) over its links (`parents`). */
export const linkNameExceptions = (parents: Int32Array, names: Uint32Array): LinkNameExceptions => {
  let count = 0
  for (let row = 0; row < names.length; row++) if (names[row] !== ruleOf(parents[row])) count++
  const exceptions = { rows: new Uint32Array(count), names: new Uint32Array(count) }
  let k = 0
  for (let row = 0; row < names.length; row++) {
    if (names[row] === ruleOf(parents[row])) continue
    exceptions.rows[k] = row
    exceptions.names[k++] = names[row]
  }
  return exceptions
}
