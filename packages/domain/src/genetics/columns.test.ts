import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { completeGenerationsOf, equivalentGenerationsOf, geneticColumns, inbreedingOf } from "./columns.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { rowPedigree } from "./ordered.ts"
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
          expect(Math.abs(inbreedingOf(columns, row) - (2 * table[b][b] - 1))).toBeLessThanOrEqual(1e-7)
        })
      }),
      { numRuns: 100 }
    )
  })

  it("give back the graph the load built, cycles dropped alike, a kept parent a generation above its child", () => {
    fc.assert(
      fc.property(anyParentage, (parentage) => {
        const graph = pedigreeGraph(parentage)
        const rows = rowPedigree(parentage, geneticColumns(parentage))
        for (let row = 0; row < rows.size; row++) {
          const v = graph.node[row]
          expect(rows.sire(row)).toBe(graph.sire[v] < 0 ? -1 : graph.row[graph.sire[v]])
          expect(rows.dam(row)).toBe(graph.dam[v] < 0 ? -1 : graph.row[graph.dam[v]])
          for (const parent of [rows.sire(row), rows.dam(row)]) if (parent >= 0) expect(rows.generation[parent]).toBeLessThan(rows.generation[row])
        }
      }),
      { numRuns: 300 }
    )
  })

  it("code t and the complete generations by depth, each row's pair exactly as computed (t in single precision)", () => {
    fc.assert(
      fc.property(anyParentage, (parentage) => {
        const graph = pedigreeGraph(parentage)
        const { complete, equivalent } = generationsOf(graph)
        const columns = geneticColumns(parentage)
        expect(columns.depth).toBeInstanceOf(Uint16Array)
        expect(columns.longestLine).toBeInstanceOf(Uint8Array)
        for (let row = 0; row < graph.size; row++) {
          const v = graph.node[row]
          expect(equivalentGenerationsOf(columns, row)).toBe(Math.fround(equivalent[v]))
          expect(completeGenerationsOf(columns, row)).toBe(complete[v])
          expect(columns.longestLine[row]).toBe(graph.longestLine[v])
        }
        // Each code once: as many codes as distinct pairs.
        const pairs = new Set(Array.from(graph.node, (v) => `${Math.fround(equivalent[v])}/${complete[v]}`))
        expect(columns.depthEquivalent.length).toBe(pairs.size)
      }),
      { numRuns: 300 }
    )
  })

  it("code F by its distinct single-precision values, each row's F exactly as computed", () => {
    fc.assert(
      fc.property(anyParentage, (parentage) => {
        const graph = pedigreeGraph(parentage)
        const F = inbreedingCoefficients(graph)
        const columns = geneticColumns(parentage)
        expect(columns.inbreedingCode).toBeInstanceOf(Uint16Array)
        for (let row = 0; row < graph.size; row++) expect(inbreedingOf(columns, row)).toBe(Math.fround(F[graph.node[row]]))
        expect(columns.inbreedingValues.length).toBe(new Set(Array.from(F, (f) => Math.fround(f))).size)
      }),
      { numRuns: 300 }
    )
  })

  it("hold a line of 256 generations or more on two bytes", () => {
    // A chain of 300 records, each the foal of the previous one and of a founder: lines 0..299.
    const n = 600
    const sire = new Int32Array(n).fill(-1)
    const dam = new Int32Array(n).fill(-1)
    for (let k = 1; k < 300; k++) {
      sire[k] = k - 1
      dam[k] = 300 + k
    }
    const columns = geneticColumns({ sire, dam })
    expect(columns.longestLine).toBeInstanceOf(Uint16Array)
    expect(columns.longestLine[299]).toBe(299)
    expect(completeGenerationsOf(columns, 299)).toBe(1)
    expect(rowPedigree({ sire, dam }, columns).sire(299)).toBe(298)
  })
})
