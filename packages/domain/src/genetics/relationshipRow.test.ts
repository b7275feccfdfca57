import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { Postings } from "../dataset/columns.ts"
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { geneticColumns } from "./columns.ts"
import { rowPedigree } from "./ordered.ts"
import { coancestryTable, pedigreeArbitrary } from "./pedigree.fixtures.ts"
import { animalsWithChildren, isRelative, lineOf, noRelative, pairRelationship, relationshipAt, relationshipRow, relativesOf } from "./relationshipRow.ts"

/** Each animal's children through either link, as the Dataset's progeny index lists them. */
const childrenOf = ({ dam, sire }: Parentage): Postings => {
  const n = sire.length
  const lists: Array<Array<number>> = Array.from({ length: n }, () => [])
  for (let c = 0; c < n; c++) {
    if (sire[c] >= 0) lists[sire[c]].push(c)
    if (dam[c] >= 0 && dam[c] !== sire[c]) lists[dam[c]].push(c)
  }
  const offsets = new Uint32Array(n + 1)
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + lists[v].length
  return { offsets, rows: Uint32Array.from(lists.flat()) }
}

/** a(i, j) for every j, read through the row's own lookup (0 where it does not reach). */
const rowOf = (parentage: Parentage, i: number): Float64Array => {
  const columns = geneticColumns(parentage)
  const { longestLine } = columns
  const children = childrenOf(parentage)
  const pedigree = rowPedigree(parentage, columns)
  const row = relationshipRow(pedigree, relativesOf(pedigree, children, animalsWithChildren(children), i))
  return Float64Array.from(longestLine, (_, j) => relationshipAt(row, j))
}

describe("relationshipRow", () => {
  it("by hand: a half-brother, an unrelated animal, the sire", () => {
    // 0 × 1 -> 3 (the mare); 0 × 2 -> 4 (her half-brother); 5 unrelated; 0 is her sire.
    const sire = Int32Array.from([-1, -1, -1, 0, 0, -1])
    const dam = Int32Array.from([-1, -1, -1, 1, 2, -1])
    const a = rowOf({ sire, dam }, 3)
    expect(Array.from(a, (x) => x / 2)).toEqual([0.25, 0.25, 0, 0.5, 0.125, 0])
  })

  it("holds the reached animals alone: i, its ancestors and those of their descendants that have children", () => {
    // 0 × 1 -> 2; 2 × 3 -> 4; 4 × 8 -> 9; 2 × 3 -> 10; 5 × 6 -> 7 elsewhere. The row of 2 holds 0, 1, 2 and
    // 4 (a parent); 9 and 10, childless, are read from their parents; 3, 5, 6, 7 and 8 are no relatives.
    const sire = Int32Array.from([-1, -1, 0, -1, 2, -1, -1, 5, -1, 4, 2])
    const dam = Int32Array.from([-1, -1, 1, -1, 3, -1, -1, 6, -1, 8, 3])
    const parentage = { sire, dam }
    const columns = geneticColumns(parentage)
    const children = childrenOf(parentage)
    const pedigree = rowPedigree(parentage, columns)
    const relatives = relativesOf(pedigree, children, animalsWithChildren(children), 2)
    const row = relationshipRow(pedigree, relatives)
    expect(Array.from(row.rows)).toEqual([0, 1, 2, 4])
    expect(Array.from(row.values)).toEqual([0.5, 0.5, 1, 0.5])
    expect([9, 10].map((j) => relationshipAt(row, j))).toEqual([0.25, 0.5])
    expect([3, 5, 6, 7, 8].map((j) => relationshipAt(row, j))).toEqual([0, 0, 0, 0, 0])
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((j) => isRelative(relatives, j))).toEqual([0, 1, 2, 4, 9, 10])
  })

  it("the animals with children: those the progeny index lists any child of", () => {
    // 0 × 1 -> 2; 2 × 3 -> 4: 0, 1 and 2 have children, 3 (a dam) too, 4 none.
    const children = childrenOf({ sire: Int32Array.from([-1, -1, 0, -1, 2]), dam: Int32Array.from([-1, -1, 1, -1, 3]) })
    const bits = animalsWithChildren(children)
    expect([0, 1, 2, 3, 4].map((v) => (bits[v >>> 5] >>> (v & 31)) & 1)).toEqual([1, 1, 1, 1, 0])
  })

  it("a link the load dropped for closing a cycle is not followed down, though the progeny index lists it", () => {
    // 0's sire is 1 and 1's sire is 0: the walk from 0 drops 1's link; 1 is 0's sire, without parents.
    const parentage = { sire: Int32Array.from([1, 0]), dam: Int32Array.from([-1, -1]) }
    expect(Array.from(rowOf(parentage, 1))).toEqual([0.5, 1])
    expect(Array.from(rowOf(parentage, 0))).toEqual([1, 0.5])
  })

  it("a(i, j)/2 is the tabular coancestry without a cut, for every i and j (1e-12)", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), ({ birthDam, birthSire, parentage, rowOf: rows }) => {
        const table = coancestryTable(birthSire, birthDam)
        for (let b = 0; b < table.length; b++) {
          const a = rowOf(parentage, rows[b])
          for (let c = 0; c < table.length; c++) expect(Math.abs(a[rows[c]] / 2 - table[b][c])).toBeLessThan(1e-12)
        }
      }),
      { numRuns: 150 }
    )
  })

  it("one pair's a(i, j) through their ancestries alone is the tabular relationship, for every i and j (1e-12)", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), ({ birthDam, birthSire, parentage, rowOf: rows }) => {
        const table = coancestryTable(birthSire, birthDam)
        const pedigree = rowPedigree(parentage, geneticColumns(parentage))
        for (let b = 0; b < table.length; b++) {
          for (let c = 0; c < table.length; c++) expect(Math.abs(pairRelationship(pedigree, rows[b], rows[c]) / 2 - table[b][c])).toBeLessThan(1e-12)
        }
      }),
      { numRuns: 150 }
    )
  })

  it("one pair by hand: half-siblings, a sire and his daughter, an inbred animal with itself, an unrelated one, a grandsire on both sides", () => {
    // 0 × 1 -> 3; 0 × 2 -> 4; 3 × 4 -> 5 (half-siblings mated: F = 1/8); 6 unrelated.
    const sire = Int32Array.from([-1, -1, -1, 0, 0, 3, -1])
    const dam = Int32Array.from([-1, -1, -1, 1, 2, 4, -1])
    const parentage = { sire, dam }
    const pedigree = rowPedigree(parentage, geneticColumns(parentage))
    expect([[3, 4], [0, 3], [5, 5], [6, 5], [5, 0]].map(([i, j]) => pairRelationship(pedigree, i, j))).toEqual([0.25, 0.5, 1.125, 0, 0.5])
  })

  it("no relative of i by a walk up j's ancestry exactly when the walk down from i's line does not reach j", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), ({ parentage }) => {
        const columns = geneticColumns(parentage)
        const pedigree = rowPedigree(parentage, columns)
        const children = childrenOf(parentage)
        const parents = animalsWithChildren(children)
        for (let i = 0; i < pedigree.size; i++) {
          const relatives = relativesOf(pedigree, children, parents, i)
          const line = new Set(lineOf(pedigree, i))
          for (let j = 0; j < pedigree.size; j++) expect(noRelative(pedigree, line, j)).toBe(!isRelative(relatives, j))
        }
      }),
      { numRuns: 100 }
    )
  })
})
