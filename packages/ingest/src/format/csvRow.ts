/**
 * Writes one record of the flat CSV export (design 1.2), for the generator and for tests.
 *
 * A value of the wrong type (a number where text is expected, an object for `performances`…) is
 * written as an empty cell: the JSON Lines reader ignores it too, so a record written in both
 * formats reads back equal. Numbers are the one exception, written as their text even when they
 * are not integers, so that an aberrant value stays visible in the file; the reader then ignores it.
 */
import { LINK_KEYS, type SourceRecord } from "@equides/domain"
import * as Predicate from "effect/Predicate"
import { CSV_COLUMNS } from "./csvColumns.ts"

/** The header line, without its line terminator. */
export const CSV_HEADER: string = CSV_COLUMNS.join(",")

type Cell =
  | { readonly kind: "text"; readonly key: string }
  | { readonly kind: "number"; readonly key: string }
  | { readonly kind: "link"; readonly link: string; readonly field: string }
  | { readonly kind: "performances" }

// Longest prefix first: `pere_de_mere_id` must not be read as `pere_` + `de_mere_id`.
const LINK_PREFIXES = [...LINK_KEYS].sort((a, b) => b.length - a.length)

const cellOf = (column: string): Cell => {
  if (column === "performances") return { kind: "performances" }
  if (column === "annee_naissance") return { kind: "number", key: column }
  for (const link of LINK_PREFIXES) {
    if (column.startsWith(`${link}_`)) return { kind: "link", link, field: column.slice(link.length + 1) }
  }
  return { kind: "text", key: column }
}

const CELLS: ReadonlyArray<Cell> = CSV_COLUMNS.map(cellOf)

const NEEDS_QUOTES = /[",\r\n]/
const QUOTE = /"/g

/** RFC 4180: a cell holding a comma, a quote or a line break is quoted, its quotes doubled. */
export const csvCell = (text: string): string => NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, "\"\"")}"` : text

const textOf = (value: unknown): string => typeof value === "string" ? csvCell(value) : ""

const cellText = (cell: Cell, raw: Readonly<Record<string, unknown>>): string => {
  switch (cell.kind) {
    case "text":
      return textOf(raw[cell.key])
    case "number": {
      const value = raw[cell.key]
      return typeof value === "number" && Number.isFinite(value) ? String(value) : ""
    }
    case "link": {
      const link = raw[cell.link]
      return Predicate.isObject(link) ? textOf(link[cell.field]) : ""
    }
    case "performances": {
      const performances = raw.performances
      return Array.isArray(performances) ? csvCell(JSON.stringify(performances)) : ""
    }
  }
}

/** One data row in `CSV_COLUMNS` order, without its line terminator; absent values give empty cells. */
export const recordToCsvRow = (record: Readonly<Record<string, unknown>> | SourceRecord): string => {
  const raw = record as Readonly<Record<string, unknown>>
  let row = cellText(CELLS[0], raw)
  for (let i = 1; i < CELLS.length; i++) row += "," + cellText(CELLS[i], raw)
  return row
}
