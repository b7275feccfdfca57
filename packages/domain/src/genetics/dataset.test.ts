import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { consanguinite } from "../query/consanguinite/consanguinite.ts"
import { build, rowOf } from "../query/record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { inbreedingOf } from "./columns.ts"
import { pedigreeArbitrary } from "./pedigree.fixtures.ts"

describe("the Dataset's genetics columns", () => {
  it("equal the consanguinity route at 12 generations for every record no deeper than 12", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), fc.double({ min: 0, max: 0.3, noNaN: true }), (pedigree, dangling) => {
        const { dam, sire } = pedigree.parentage
        const n = sire.length
        // Some links name a parent absent from the file (dangling): an unknown parent for F.
        const link = (parent: number, row: number) =>
          parent < 0 ? {} : { id: (row * 7919) % 100 < dangling * 100 ? idN(10_000 + row) : idN(parent + 1), nom: `P${parent}` }
        const records: Array<SourceRecord> = Array.from({ length: n }, (_, row) => ({
          id: idN(row + 1),
          nom: `H${row}`,
          race: "Selle Francais",
          sexe: "Male",
          ...(sire[row] < 0 ? {} : { pere: link(sire[row], row) }),
          ...(dam[row] < 0 ? {} : { mere: link(dam[row], n + row) })
        }))
        const data = build(records)
        for (let k = 0; k < n; k++) {
          const row = rowOf(data, idN(k + 1))
          if (data.genetics.longestLine[row] > 12) continue
          const expected = consanguinite(data, row, 12).coefficient
          expect(Math.abs(inbreedingOf(data.genetics, row) - expected)).toBeLessThanOrEqual(1e-7 * Math.max(expected, 1e-30))
        }
      }),
      { numRuns: 100 }
    )
  })
})
