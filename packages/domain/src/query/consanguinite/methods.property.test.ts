import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Coancestry } from "./coancestry.ts"
import { cutGraph, type Parentage } from "./cutGraph.ts"
import { commonAncestors } from "./paths.ts"

/**
 * A random pedigree: animal i's parents are older animals (smaller numbers), drawn from a window of
 * recent ones so that relatives mate often; the foal's parents are any two animals (or unknown).
 */
interface RandomPedigree {
  readonly parentage: Parentage
  readonly sire: number
  readonly dam: number
}

const pedigreeArbitrary: fc.Arbitrary<RandomPedigree> = fc.integer({ min: 1, max: 28 }).chain((n) =>
  fc.record({
    parents: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
      minLength: n,
      maxLength: n
    }),
    window: fc.integer({ min: 2, max: 8 }),
    unknown: fc.double({ min: 0, max: 0.4, noNaN: true }),
    sire: fc.integer({ min: -1, max: n - 1 }),
    dam: fc.integer({ min: -1, max: n - 1 })
  }).map(({ dam, parents, sire, unknown, window }) => {
    const draw = (i: number, u: number): number => {
      if (i === 0 || u < unknown) return -1
      const low = Math.max(0, i - window)
      return low + Math.min(i - low - 1, Math.floor(((u - unknown) / (1 - unknown)) * (i - low)))
    }
    const sires = Int32Array.from(parents, ([u], i) => draw(i, u))
    const dams = Int32Array.from(parents, ([, u], i) => draw(i, u))
    return { parentage: { sire: sires, dam: dams }, sire, dam }
  })
)

/** The classic full table over every animal (parents before children), the foal added last. */
const naiveFullTable = ({ dam, parentage, sire }: RandomPedigree): Array<Array<number>> => {
  const n = parentage.sire.length + 1
  const sires = [...parentage.sire, sire]
  const dams = [...parentage.dam, dam]
  const table = Array.from({ length: n }, () => new Array<number>(n).fill(0))
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const value = 0.5 * ((sires[i] >= 0 ? table[sires[i]][j] : 0) + (dams[i] >= 0 ? table[dams[i]][j] : 0))
      table[i][j] = value
      table[j][i] = value
    }
    table[i][i] = 0.5 * (1 + (sires[i] >= 0 && dams[i] >= 0 ? table[sires[i]][dams[i]] : 0))
  }
  return table
}

/** F of animal `i` (the foal is the last one) in a full table. */
const tableF = (table: ReadonlyArray<ReadonlyArray<number>>, i: number): number => 2 * table[i][i] - 1

const analyse = (pedigree: RandomPedigree, generations: number) => {
  const graph = cutGraph(pedigree.parentage, pedigree.sire, pedigree.dam, generations)
  const coancestry = new Coancestry(graph, graph.foalSire, graph.foalDam)
  return { graph, coefficient: coancestry.coefficient, ancestors: commonAncestors(graph, coancestry) }
}

describe("the tabular and the path methods on random pedigrees", () => {
  it("agree: Σ contributions = tabular F, and F ∈ [0, 1)", () => {
    fc.assert(
      fc.property(pedigreeArbitrary, fc.integer({ min: 1, max: 12 }), (pedigree, generations) => {
        const { ancestors, coefficient, graph } = analyse(pedigree, generations)
        const sum = ancestors.reduce((total, a) => total + a.contribution, 0)
        expect(Math.abs(sum - coefficient)).toBeLessThan(1e-12)
        expect(coefficient).toBeGreaterThanOrEqual(0)
        expect(coefficient).toBeLessThan(1)
        const table = new Coancestry(graph, graph.foalSire, graph.foalDam)
        // The table holds common ancestors and their descendants up to the parents, never more than the graph.
        expect(table.nodes).toBeLessThanOrEqual(graph.size)
        if (ancestors.length === 0 && graph.foalSire !== graph.foalDam) expect(table.nodes).toBe(0)
        for (const a of ancestors) {
          expect(a.pairs).toBeGreaterThan(0)
          expect(a.contribution).toBeGreaterThan(0)
          expect(a.sireGenerations.length * a.damGenerations.length).toBeGreaterThanOrEqual(a.pairs)
        }
      }),
      { numRuns: 400 }
    )
  })

  it("deep enough to hold every ancestor, the cut gives the full table's F, F_A and the parents' F", () => {
    fc.assert(
      fc.property(pedigreeArbitrary, (pedigree) => {
        // 29 generations exceed any line of descent among 28 animals.
        const { ancestors, coefficient, graph } = analyse(pedigree, 29)
        const table = naiveFullTable(pedigree)
        expect(Math.abs(coefficient - tableF(table, table.length - 1))).toBeLessThan(1e-12)
        for (const a of ancestors) expect(Math.abs(a.inbreeding - tableF(table, graph.row[a.node]))).toBeLessThan(1e-12)
        for (const parent of [graph.foalSire, graph.foalDam]) {
          if (parent < 0) continue
          const own = new Coancestry(graph, graph.sire[parent], graph.dam[parent]).coefficient
          expect(Math.abs(own - tableF(table, graph.row[parent]))).toBeLessThan(1e-12)
        }
      }),
      { numRuns: 300 }
    )
  })

  it("cutting at N + 1 never loses a common ancestor found at N", () => {
    fc.assert(
      fc.property(pedigreeArbitrary, fc.integer({ min: 1, max: 11 }), (pedigree, generations) => {
        const rowsOf = (g: number) => {
          const { ancestors, graph } = analyse(pedigree, g)
          return new Set(ancestors.map((a) => graph.row[a.node]))
        }
        const deeper = rowsOf(generations + 1)
        for (const row of rowsOf(generations)) expect(deeper.has(row)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it("breaks a cycle of the source the same way for both methods", () => {
    // 0 → 1 → 2 → 0: each is its own ancestor; the foal is 2 × 1.
    const parentage: Parentage = { sire: Int32Array.of(2, 0, 1), dam: Int32Array.of(-1, -1, -1) }
    for (let generations = 1; generations <= 12; generations++) {
      const { ancestors, coefficient } = analyse({ parentage, sire: 2, dam: 1 }, generations)
      expect(ancestors.reduce((total, a) => total + a.contribution, 0)).toBeCloseTo(coefficient, 12)
    }
  })
})
