import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { geneticColumns } from "./columns.ts"
import { rowPedigree } from "./ordered.ts"
import { coancestryTable, pedigreeArbitrary } from "./pedigree.fixtures.ts"
import { relationshipRow } from "./relationshipRow.ts"

describe("relationshipRow", () => {
  it("by hand: a half-brother, an unrelated animal, the sire", () => {
    // 0 × 1 -> 3 (the mare); 0 × 2 -> 4 (her half-brother); 5 unrelated; 0 is her sire.
    const sire = Int32Array.from([-1, -1, -1, 0, 0, -1])
    const dam = Int32Array.from([-1, -1, -1, 1, 2, -1])
    const pedigree = rowPedigree({ sire, dam }, geneticColumns({ sire, dam }).longestLine)
    const a = relationshipRow(pedigree, 3)
    expect(Array.from(a, (x) => x / 2)).toEqual([0.25, 0.25, 0, 0.5, 0.125, 0])
  })

  it("a(i, j)/2 is the tabular coancestry without a cut, for every i and j (1e-12)", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), ({ birthDam, birthSire, parentage, rowOf }) => {
        const table = coancestryTable(birthSire, birthDam)
        const pedigree = rowPedigree(parentage, geneticColumns(parentage).longestLine)
        for (let b = 0; b < table.length; b++) {
          const a = relationshipRow(pedigree, rowOf[b])
          for (let c = 0; c < table.length; c++) expect(Math.abs(a[rowOf[c]] / 2 - table[b][c])).toBeLessThan(1e-12)
        }
      }),
      { numRuns: 150 }
    )
  })
})
