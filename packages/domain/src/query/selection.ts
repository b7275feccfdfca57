/**
 * The rows a query keeps (a selection), in the form that was cheapest to build, and the ways to
 * read it that do not depend on that form: its rows ascending, a membership test, and what
 * each of those costs (in the units of `costs.ts`) for the planners that choose between them.
 */
import { bitRows, hasBit, setBits, wordsFor } from "../dataset/bits.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { ASCENDING_BIT, BIT_ROW } from "./costs.ts"

export type RowTest = (row: number) => boolean

/** Every row of the Dataset, never materialised. */
interface AllRows {
  readonly _tag: "All"
  readonly count: number
}

/** Rows listed ascending (file order), possibly a zero-copy view of a Dataset postings. */
interface ListedRows {
  readonly _tag: "Listed"
  readonly count: number
  readonly rows: Uint32Array
  /** Year codes the rows may carry (1 = allowed, index = code), when a year filter is set. */
  readonly yearCodes: Uint8Array | undefined
}

/** Rows as a bitset, one bit per row (possibly a bitset the Dataset keeps: never write into it). */
interface RowBits {
  readonly _tag: "Bits"
  readonly count: number
  readonly bits: Uint32Array
  /** The bitset's O(1) membership test. */
  readonly test: RowTest
  /** Year codes the rows may carry (1 = allowed, index = code), when a year filter is set. */
  readonly yearCodes: Uint8Array | undefined
}

/** `count` is exact in every form. */
export type Selection = AllRows | ListedRows | RowBits

export const allRows = (data: DatasetData): Selection => ({ _tag: "All", count: data.size })

/** A selection over explicit rows (ascending, distinct). */
export const selectionOfRows = (rows: Uint32Array, yearCodes?: Uint8Array): Selection => ({
  _tag: "Listed",
  count: rows.length,
  rows,
  yearCodes
})

/** A selection over a bitset holding `count` rows. */
export const selectionOfBits = (count: number, bits: Uint32Array, yearCodes?: Uint8Array): Selection => ({
  _tag: "Bits",
  count,
  bits,
  test: (row) => hasBit(bits, row),
  yearCodes
})

const bitmaps = new WeakMap<Selection, Uint32Array>()
const listed = new WeakMap<Selection, Uint32Array>()

/** Membership test of a selection: always true, its bitset's, or a bitset of its rows built once per selection. */
export const membership = (data: DatasetData, selection: Selection): RowTest => {
  switch (selection._tag) {
    case "All":
      return () => true
    case "Bits":
      return selection.test
    case "Listed": {
      let bits = bitmaps.get(selection)
      if (bits === undefined) {
        bits = new Uint32Array(wordsFor(data.size))
        setBits(bits, selection.rows)
        bitmaps.set(selection, bits)
      }
      const b = bits
      return (row) => hasBit(b, row)
    }
  }
}

/** Work of `membership`: a bitset of the rows for a listed selection, none otherwise. */
export const membershipCost = (data: DatasetData, selection: Selection): number =>
  selection._tag === "Listed" ? wordsFor(data.size) + ASCENDING_BIT * selection.count : 0

/**
 * The selected rows ascending: the listed rows, the bitset's rows (listed once per selection,
 * O(size / 32 + count)), undefined for the whole Dataset (rows 0..size-1).
 */
export const selectionRows = (selection: Selection): Uint32Array | undefined => {
  switch (selection._tag) {
    case "All":
      return undefined
    case "Listed":
      return selection.rows
    case "Bits": {
      let rows = listed.get(selection)
      if (rows === undefined) {
        rows = new Uint32Array(selection.count)
        bitRows(selection.bits, rows)
        listed.set(selection, rows)
      }
      return rows
    }
  }
}

/** Work of `selectionRows` for a selection held as a bitset (a pass over its words, then its rows); none otherwise. */
export const listingCost = (data: DatasetData, selection: Selection): number =>
  selection._tag === "Bits" ? wordsFor(data.size) + BIT_ROW * selection.count : 0
