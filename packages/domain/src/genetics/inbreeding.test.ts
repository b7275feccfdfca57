import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { foalInbreeding } from "../query/consanguinite/coancestry.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { coancestryTable, pedigreeArbitrary } from "./pedigree.fixtures.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"

/** F, t, complete generations and longest line of every row of a pedigree given as [sire, dam] rows. */
const analyse = (parents: ReadonlyArray<readonly [number, number]>) => {
  const graph = pedigreeGraph({ sire: Int32Array.from(parents, ([s]) => s), dam: Int32Array.from(parents, ([, d]) => d) })
  const inbreeding = inbreedingCoefficients(graph)
  const { complete, equivalent } = generationsOf(graph)
  const byRow = <A extends Float64Array | Int32Array>(column: A) => Array.from(graph.row, (_, r) => column[graph.node[r]])
  return {
    F: byRow(inbreeding),
    t: byRow(equivalent),
    complete: byRow(complete),
    longest: byRow(graph.longestLine),
    dropped: graph.droppedLinks
  }
}

describe("F over all generations, pedigrees known by hand", () => {
  it("half-sibs mated: 1/8", () => {
    // 0 sire of 3 and 4 out of 1 and 2; 5 = 3 × 4.
    expect(analyse([[-1, -1], [-1, -1], [-1, -1], [0, 1], [0, 2], [3, 4]]).F[5]).toBe(0.125)
  })

  it("full sibs mated: 1/4, listed child first", () => {
    // Rows in an order where children come before parents: 0 = 1 × 2, 1 and 2 full sibs of 3 × 4.
    expect(analyse([[1, 2], [3, 4], [3, 4], [-1, -1], [-1, -1]]).F[0]).toBe(0.25)
  })

  it("3 × 4 on one ancestor: 1/64", () => {
    // 0 at generation 3 of the foal 6 through its sire (2 <- 1 <- 0), at generation 4 through its dam (5 <- 4 <- 3 <- 0).
    const F = analyse([[-1, -1], [0, -1], [1, -1], [0, -1], [-1, 3], [-1, 4], [2, 5]]).F
    expect(F[6]).toBe(1 / 64)
  })

  it("an inbred common ancestor counts (1 + F_A)", () => {
    // 2 = 0 × 1; 3, 4 full sibs out of 2 ... A = 5 = 3 × 4 (F 1/4); 8 = 5 × 6 and 9 = 5 × 7 half-sibs; 10 = 8 × 9.
    const F = analyse([[-1, -1], [-1, -1], [0, 1], [0, 1], [0, 1], [3, 4], [-1, -1], [-1, -1], [5, 6], [5, 7], [8, 9]]).F
    expect(F[5]).toBe(0.25)
    expect(F[10]).toBe(0.125 * 1.25)
  })

  it("the six-animal example (Mrode): F_5 = F_6 = 1/8, with t, complete generations and longest line", () => {
    // Animals 1..6 as rows 0..5: 3 = 1 × 2, 4 = 1 × ?, 5 = 4 × 3, 6 = 5 × 2.
    const result = analyse([[-1, -1], [-1, -1], [0, 1], [0, -1], [3, 2], [4, 1]])
    expect(result.F).toEqual([0, 0, 0, 0, 0.125, 0.125])
    expect(result.t).toEqual([0, 0, 1, 0.5, 1.75, 1.875])
    expect(result.complete).toEqual([0, 0, 1, 0, 1, 1])
    expect(result.longest).toEqual([0, 0, 1, 1, 2, 3])
  })

  it("a link closing a cycle is dropped, and F stays a probability", () => {
    // 0's sire is 1, 1's sire is 0; 2 = 0 × 1.
    const result = analyse([[1, -1], [0, -1], [0, 1]])
    expect(result.dropped).toBe(1)
    for (const f of result.F) expect(f >= 0 && f <= 1).toBe(true)
    expect(result.F[2]).toBe(0.25)
  })
})

describe("F over all generations, random pedigrees", () => {
  it("equals the tabular method without a cut, on deep and inbred pedigrees", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(90), (pedigree) => {
        const graph = pedigreeGraph(pedigree.parentage)
        expect(graph.droppedLinks).toBe(0)
        const inbreeding = inbreedingCoefficients(graph)
        const table = coancestryTable(pedigree.birthSire, pedigree.birthDam)
        pedigree.rowOf.forEach((row, b) => {
          expect(Math.abs(inbreeding[graph.node[row]] - (2 * table[b][b] - 1))).toBeLessThanOrEqual(1e-12)
        })
      }),
      { numRuns: 300 }
    )
  })

  it("equals the consanguinity route's computation at 12 generations when the pedigree is no deeper", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(40), (pedigree) => {
        const graph = pedigreeGraph(pedigree.parentage)
        const inbreeding = inbreedingCoefficients(graph)
        for (let row = 0; row < graph.size; row++) {
          const v = graph.node[row]
          if (graph.longestLine[v] > 12) continue
          const cut = foalInbreeding(pedigree.parentage, pedigree.parentage.sire[row], pedigree.parentage.dam[row], 12)
          expect(Math.abs(inbreeding[v] - cut)).toBeLessThanOrEqual(1e-12)
        }
      }),
      { numRuns: 200 }
    )
  })

  it("t, complete generations and longest line equal their definitions over the ancestor tree", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(30), (pedigree) => {
        const { birthDam, birthSire } = pedigree
        // The ancestor tree of b: known ancestors per generation (occurrences), by plain recursion.
        const perGeneration = (b: number, g: number, counts: Array<number>): void => {
          for (const p of [birthSire[b], birthDam[b]]) {
            if (p < 0) continue
            counts[g] = (counts[g] ?? 0) + 1
            perGeneration(p, g + 1, counts)
          }
        }
        const graph = pedigreeGraph(pedigree.parentage)
        const { complete, equivalent } = generationsOf(graph)
        pedigree.rowOf.forEach((row, b) => {
          const counts: Array<number> = []
          perGeneration(b, 1, counts)
          const v = graph.node[row]
          const t = counts.reduce((sum, c, g) => sum + c * 0.5 ** g, 0)
          expect(Math.abs(equivalent[v] - t)).toBeLessThanOrEqual(1e-9)
          let g = 0
          while ((counts[g + 1] ?? 0) === 2 ** (g + 1)) g++
          expect(complete[v]).toBe(g)
          expect(graph.longestLine[v]).toBe(counts.length === 0 ? 0 : counts.length - 1)
        })
      }),
      { numRuns: 200 }
    )
  })
})
