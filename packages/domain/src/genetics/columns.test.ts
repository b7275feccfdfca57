import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { geneticColumns, graphOfColumns } from "./columns.ts"
import { coancestryTable, pedigreeArbitrary } from "./pedigree.fixtures.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"

/** Any parents at all: cycles, self-parenthood and out-of-range rows included. */
const anyParentage = fc.integer({ min: 0, max: 30 }).chain((n) =>
  fc.record({
    sire: fc.array(fc.integer({ min: -1, max: n }), { minLength: n, maxLength: n }),
    dam: fc.array(fc.integer({ min: -1, max: n }), { minLength: n, maxLength: n })
  }).map(({ dam, sire }) => ({ sire: Int32Array.from(sire), dam: Int32Array.from(dam) }))
)

describe("the genetics columns", () => {
  it("hold F, t, complete generations and longest line by row", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), (pedigree) => {
        const columns = geneticColumns(pedigree.parentage)
        const table = coancestryTable(pedigree.birthSire, pedigree.birthDam)
        pedigree.rowOf.forEach((row, b) => {
          expect(Math.abs(columns.inbreeding[row] - (2 * table[b][b] - 1))).toBeLessThanOrEqual(1e-7)
        })
      }),
      { numRuns: 100 }
    )
  })

  it("rebuild the graph the load built, cycles dropped alike", () => {
    fc.assert(
      fc.property(anyParentage, (parentage) => {
        const graph = pedigreeGraph(parentage)
        const rebuilt = graphOfColumns(parentage, geneticColumns(parentage).longestLine)
        expect(rebuilt).toEqual(graph)
        for (let v = 0; v < graph.size; v++) {
          if (graph.sire[v] >= 0) expect(graph.sire[v]).toBeLessThan(v)
          if (graph.dam[v] >= 0) expect(graph.dam[v]).toBeLessThan(v)
        }
      }),
      { numRuns: 300 }
    )
  })
})
