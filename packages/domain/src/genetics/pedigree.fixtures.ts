import type { OrderedPedigree } from "./ordered.ts"
/**
 * Random pedigrees for the genetics tests: animals drawn in birth order, each parent an older animal
 * from a window of recent ones (a small window breeds relatives together, a long run of animals
 * makes deep lines), then stored in a shuffled row order so that nothing relies on parents coming
 * first in the file.
 */
import * as fc from "fast-check"
import type { Parentage } from "../query/consanguinite/cutGraph.ts"

export interface RandomPedigree {
  /** Parents by birth order (-1: unknown): parents are always older. */
  readonly birthSire: Int32Array
  readonly birthDam: Int32Array
  /** Row of each animal of birth order `b`, and the rows' parentage. */
  readonly rowOf: Int32Array
  readonly parentage: Parentage
}

export const pedigreeArbitrary = (maxSize: number): fc.Arbitrary<RandomPedigree> =>
  fc.integer({ min: 1, max: maxSize }).chain((n) =>
    fc.record({
      parents: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), {
        minLength: n,
        maxLength: n
      }),
      window: fc.integer({ min: 2, max: 10 }),
      unknown: fc.double({ min: 0, max: 0.4, noNaN: true }),
      order: fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n })
    }).map(({ order, parents, unknown, window }) => {
      const draw = (i: number, u: number): number => {
        if (i === 0 || u < unknown) return -1
        const low = Math.max(0, i - window)
        return low + Math.min(i - low - 1, Math.floor(((u - unknown) / (1 - unknown)) * (i - low)))
      }
      const birthSire = Int32Array.from(parents, ([u], i) => draw(i, u))
      const birthDam = Int32Array.from(parents, ([, u], i) => draw(i, u))
      const rowOf = Int32Array.from(order)
      const sire = new Int32Array(n)
      const dam = new Int32Array(n)
      for (let b = 0; b < n; b++) {
        sire[rowOf[b]] = birthSire[b] < 0 ? -1 : rowOf[birthSire[b]]
        dam[rowOf[b]] = birthDam[b] < 0 ? -1 : rowOf[birthDam[b]]
      }
      return { birthSire, birthDam, rowOf, parentage: { sire, dam } }
    })
  )

/** The full table of coefficients of coancestry f by birth order, no cut (the tabular method). */
export const coancestryTable = (sire: Int32Array, dam: Int32Array): Array<Float64Array> => {
  const n = sire.length
  const table = Array.from({ length: n }, () => new Float64Array(n))
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const value = 0.5 * ((sire[i] >= 0 ? table[sire[i]][j] : 0) + (dam[i] >= 0 ? table[dam[i]][j] : 0))
      table[i][j] = value
      table[j][i] = value
    }
    table[i][i] = 0.5 * (1 + (sire[i] >= 0 && dam[i] >= 0 ? table[sire[i]][dam[i]] : 0))
  }
  return table
}

/** Every animal of `pedigree` by generation, ties by row: the order the population walks meet them in (parents first). */
export const parentsFirst = ({ generation, size }: Pick<OrderedPedigree, "generation" | "size">): Array<number> =>
  Array.from({ length: size }, (_, row) => row).sort((a, b) => generation[a] - generation[b] || a - b)
