import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { ancestorContributions } from "./ancestors.ts"
import { ancestryOf } from "./ancestry.ts"
import { geneContributions } from "./contributions.ts"
import { founderContributions } from "./founders.ts"
import { generationsOf } from "./generations.ts"
import { inbreedingCoefficients } from "./inbreeding.ts"
import { generationInterval } from "./interval.ts"
import type { Parentage } from "../query/consanguinite/cutGraph.ts"
import { coancestryTable, parentsFirst, pedigreeArbitrary, type RandomPedigree } from "./pedigree.fixtures.ts"
import { geneticColumns } from "./columns.ts"
import { type OrderedPedigree, rowPedigree } from "./ordered.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"
import { referencePopulation } from "./reference.ts"
import { compactRows, groupShares, meanCoancestryWith } from "./groupCoancestry.ts"
import { individualIncrease, yearFigures } from "./trend.ts"

const NO_YEAR = -2147483648

/** Rows as the animals, as the routes read a Dataset. */
const rowsOf = (parentage: Parentage): OrderedPedigree => rowPedigree(parentage, geneticColumns(parentage))

const graphOf = (parents: ReadonlyArray<readonly [number, number]>) =>
  rowsOf({ sire: Int32Array.from(parents, ([s]) => s), dam: Int32Array.from(parents, ([, d]) => d) })

describe("founders, ancestors and the generation interval, by hand", () => {
  // 0 × 1 -> 2 (A); 2 × 3 -> 5 (X), 2 × 4 -> 6 (Y); reference {X, Y}.
  const parents: ReadonlyArray<readonly [number, number]> = [[-1, -1], [-1, -1], [0, 1], [-1, -1], [-1, -1], [2, 3], [2, 4]]
  const graph = graphOf(parents)
  const reference = [5, 6]

  it("f_e: 0, 1, 3, 4 hold 1/4 each", () => {
    expect(founderContributions(ancestryOf(graph, reference))).toEqual({ effective: 4, founders: 4 })
  })

  it("an unknown parent is a founder of its own (a phantom)", () => {
    // 1 = 0 × ?: the reference {1} owes half to 0 and half to the phantom.
    expect(founderContributions(ancestryOf(graphOf([[-1, -1], [0, -1]]), [1]))).toEqual({ effective: 2, founders: 2 })
  })

  it("f_a: A (1/2) explains its parents, then 3 and 4 (1/4 each)", () => {
    const result = ancestorContributions(ancestryOf(graph, reference))
    expect(result.chosen.map(({ contribution, node }) => [node, contribution])).toEqual([[2, 0.5], [3, 0.25], [4, 0.25]])
    expect(result.explained).toBe(1)
    expect(result.effective).toBe(1 / (0.25 + 0.0625 + 0.0625))
  })

  it("the generation interval: mean parent age over the pairs with both years known", () => {
    const years = Int32Array.from([1990, 1991, 2000, 1998, NO_YEAR, 2010, 2012])
    // 5: 2010 − 2000, 2010 − 1998; 6: 2012 − 2000 (its dam has no year).
    expect(generationInterval(graph, years, NO_YEAR, reference)).toBe((10 + 12 + 12) / 3)
    expect(generationInterval(graph, years, NO_YEAR, [0])).toBeNull()
  })
})

describe("the reference population", () => {
  it("takes the five years up to the last one not after the year of loading", () => {
    const years = Int32Array.from([2015, 2019, 2020, 2021, NO_YEAR, 2024, 2026])
    expect(referencePopulation(years, NO_YEAR, [0, 1, 2, 3, 4, 5, 6], 2024)).toEqual({
      annee_min: 2020,
      annee_max: 2024,
      rows: Int32Array.from([2, 3, 5])
    })
    expect(referencePopulation(years, NO_YEAR, [6], 2024)).toBeNull()
  })
})

/** A pedigree with a reference population: the last animals born, at least one. */
const withReference = (maxSize: number) =>
  pedigreeArbitrary(maxSize).chain((pedigree) =>
    fc.integer({ min: 1, max: pedigree.rowOf.length }).map((members) => ({ pedigree, members }))
  )

const referenceRows = (pedigree: RandomPedigree, members: number): Array<number> =>
  Array.from(pedigree.rowOf.subarray(pedigree.rowOf.length - members))

/** Boichard's choice run naively: gene-origin tables rebuilt after each choice, chosen ancestors' parents cut. */
const naiveAncestors = (pedigree: OrderedPedigree, reference: ReadonlyArray<number>) => {
  const n = pedigree.size
  const member = new Set(reference)
  const candidates = new Set<number>()
  const climb = (v: number): void => {
    for (const p of [pedigree.sire(v), pedigree.dam(v)]) {
      if (p >= 0 && !candidates.has(p)) {
        candidates.add(p)
        climb(p)
      }
    }
  }
  member.forEach(climb)
  const chosen: Array<number> = []
  const contributions: Array<number> = []
  let explained = 0
  while (chosen.length < 1000 && 1 - explained >= 0.001) {
    // origin[i][k]: the share of i's genes from k.
    const origin = Array.from({ length: n }, () => new Float64Array(n))
    for (const i of parentsFirst(pedigree)) {
      origin[i][i] = 1
      if (chosen.includes(i)) continue
      for (const p of [pedigree.sire(i), pedigree.dam(i)]) if (p >= 0) for (let k = 0; k < n; k++) origin[i][k] += 0.5 * origin[p][k]
    }
    let best = -1
    let bestContribution = 0
    // Ties go to the first by generation, then row.
    for (const k of parentsFirst(pedigree)) {
      if (!candidates.has(k) || chosen.includes(k)) continue
      let q = 0
      member.forEach((m) => (q += origin[m][k] / member.size))
      const contribution = q * (1 - chosen.reduce((sum, j) => sum + origin[k][j], 0))
      if (contribution > bestContribution * (1 + 1e-9)) {
        best = k
        bestContribution = contribution
      }
    }
    if (best < 0) break
    chosen.push(best)
    contributions.push(bestContribution)
    explained += bestContribution
  }
  return { chosen, contributions }
}

describe("population figures, random pedigrees", () => {
  it("parente_moyenne equals the naive mean over pairs", () => {
    fc.assert(
      fc.property(withReference(40), ({ members, pedigree }) => {
        const graph = pedigreeGraph(pedigree.parentage)
        const F = inbreedingCoefficients(graph)
        const rows = referenceRows(pedigree, members)
        const columns = geneticColumns(pedigree.parentage)
        const ordered = rowPedigree(pedigree.parentage, columns)
        const inbreeding = Float64Array.from(graph.node, (v) => F[v])
        const shares = groupShares(ordered, (row) => inbreeding[row], rows)!
        // Every animal at once, and each alone (its own walk up).
        const all = parentsFirst(ordered)
        const mean = meanCoancestryWith(ordered, shares, all)
        const each = all.map((row) => meanCoancestryWith(ordered, shares, [row])[0])
        const table = coancestryTable(pedigree.birthSire, pedigree.birthDam)
        const birthOf = new Int32Array(pedigree.rowOf.length)
        pedigree.rowOf.forEach((row, b) => (birthOf[row] = b))
        for (const [k, row] of all.entries()) {
          const naive = rows.reduce((sum, other) => sum + table[birthOf[row]][birthOf[other]], 0) / rows.length
          expect(Math.abs(mean[k] - naive)).toBeLessThanOrEqual(1e-12)
          expect(each[k]).toBe(mean[k])
        }
      }),
      { numRuns: 200 }
    )
  })

  it("shares keep each row of the group's ancestry once, found again by its block, rows of every block", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 300_000 }), { maxLength: 200 }), (list) => {
        const rows = Uint32Array.from(list).sort()
        const { blocks, low } = compactRows(rows)
        const decoded = Array.from(low, (l, k) => {
          let block = 0
          while (blocks[block + 1] <= k) block++
          return block * 65_536 + l
        })
        expect(decoded).toEqual(Array.from(rows))
        expect(blocks[blocks.length - 1]).toBe(rows.length)
      }),
      { numRuns: 200 }
    )
  })

  it("f_a equals a naive run of Boichard's choice over gene-origin tables, and 1 ≤ f_a, Σ p ≤ 1", () => {
    fc.assert(
      fc.property(withReference(30), ({ members, pedigree }) => {
        const rows = rowsOf(pedigree.parentage)
        const reference = referenceRows(pedigree, members)
        const result = ancestorContributions(ancestryOf(rows, reference))
        const naive = naiveAncestors(rows, reference)
        expect(result.chosen.map(({ node }) => node)).toEqual(naive.chosen)
        const squares = naive.contributions.reduce((sum, p) => sum + p * p, 0)
        if (squares === 0) expect(result.effective).toBeNull()
        else {
          expect(Math.abs(result.effective! - 1 / squares)).toBeLessThanOrEqual(1e-9 / squares)
          expect(result.effective!).toBeGreaterThanOrEqual(1 - 1e-9)
        }
        expect(result.explained).toBeLessThanOrEqual(1 + 1e-12)
      }),
      { numRuns: 200 }
    )
  })

  it("f_a exceeds f_e by Boichard's own procedure on a plain pedigree, by hand: 49/6 against 7", () => {
    // Stallion A = F1 × F4 sires 8 foals; F1 sires 3 others, F4 foals 3 others; every mate is a founder.
    // Founders: F1 and F4 hold 1/4 each, the 14 mates 1/28 each: f_e = 1 / (2/16 + 14/784) = 7.
    // Ancestors: A first (8 · 1/2 / 14 = 2/7 > F1's 1/4), then F1 and F4 with what does not pass through A
    // (3/28 each), then the mates: f_a = 1 / (4/49 + 2 · 9/784 + 14/784) = 49/6. A merges half of F1 with
    // half of F4, and the choice splits each founder's share in two: Σ p² falls below Σ q².
    const parents: Array<readonly [number, number]> = [[-1, -1], [-1, -1], [0, 1]]
    const reference: Array<number> = []
    const foal = (sire: number, dam: number) => {
      parents.push([sire, dam])
      reference.push(parents.length - 1)
    }
    const founder = () => parents.push([-1, -1]) - 1
    for (let k = 0; k < 8; k++) foal(2, founder())
    for (let k = 0; k < 3; k++) foal(0, founder())
    for (let k = 0; k < 3; k++) foal(founder(), 1)
    const graph = graphOf(parents)
    expect(founderContributions(ancestryOf(graph, reference))).toEqual({ effective: expect.closeTo(7, 12), founders: 16 })
    const ancestors = ancestorContributions(ancestryOf(graph, reference))
    expect(ancestors.effective).toBeCloseTo(49 / 6, 12)
    expect(ancestors.chosen.slice(0, 3).map(({ contribution, node }) => [node, contribution])).toEqual([
      [2, expect.closeTo(2 / 7, 12)],
      [0, expect.closeTo(3 / 28, 12)],
      [1, expect.closeTo(3 / 28, 12)]
    ])
    expect(ancestors.explained).toBeCloseTo(1, 12)
  })

  it("f_a may exceed f_e: a founder reaching the reference through several chosen ancestors splits its share", () => {
    // Found by fast-check (birth order; -1 unknown); reference: every animal with both parents known.
    const sire = [-1, 0, 0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, 12, 13, 14, -1, 16, -1, 18, -1, 20, -1, 22, -1, 24, -1, 26, -1]
    const dam = [-1, 0, 0, 1, 2, 4, -1, 5, 6, 7, 8, 9, 11, -1, 12, 13, 14, -1, 16, -1, 18, -1, 20, -1, 22, -1, 24, -1, 26, -1]
    const graph = graphOf(sire.map((s, b) => [s, dam[b]] as const))
    const reference = sire.flatMap((s, b) => (s >= 0 && dam[b] >= 0 ? [b] : []))
    const fe = founderContributions(ancestryOf(graph, reference)).effective!
    const fa = ancestorContributions(ancestryOf(graph, reference)).effective!
    expect(fe).toBeCloseTo(2.0573, 4)
    expect(fa).toBeCloseTo(2.0773, 4)
  })

  it("each animal's contribution equals Σ (1/2)^g / N over its paths down to the members", () => {
    fc.assert(
      fc.property(withReference(30), ({ members, pedigree }) => {
        const rows = referenceRows(pedigree, members)
        const ordered = rowsOf(pedigree.parentage)
        // Σ over the paths from a row up to each ancestor of (1/2)^g: the row itself, then half its sire's sums and
        // half its dam's, kept per row (walking every path one by one is exponential in a deep inbred pedigree: a
        // run of 30 animals took 18 s once).
        const sums = new Map<number, Map<number, number>>()
        const pathSums = (row: number): Map<number, number> => {
          const known = sums.get(row)
          if (known !== undefined) return known
          const own = new Map<number, number>([[row, 1]])
          for (const parent of [ordered.sire(row), ordered.dam(row)]) {
            if (parent < 0) continue
            for (const [ancestor, sum] of pathSums(parent)) own.set(ancestor, (own.get(ancestor) ?? 0) + sum / 2)
          }
          sums.set(row, own)
          return own
        }
        const naive = new Map<number, number>()
        for (const row of rows) for (const [ancestor, sum] of pathSums(row)) naive.set(ancestor, (naive.get(ancestor) ?? 0) + sum / rows.length)
        const ancestry = ancestryOf(ordered, rows)
        const contributions = geneContributions(ancestry)
        expect(ancestry.node.length).toBe(naive.size)
        ancestry.node.forEach((row, i) => expect(Math.abs(contributions[i] - naive.get(row)!)).toBeLessThanOrEqual(1e-12))
      }),
      { numRuns: 200 }
    )
  })

  it("the generation interval equals the naive mean over (member, parent) pairs with both years", () => {
    fc.assert(
      fc.property(
        withReference(40).chain(({ members, pedigree }) =>
          fc.record({
            members: fc.constant(members),
            pedigree: fc.constant(pedigree),
            years: fc.array(fc.option(fc.integer({ min: 1980, max: 2024 }), { nil: undefined }), {
              minLength: pedigree.rowOf.length,
              maxLength: pedigree.rowOf.length
            })
          })
        ),
        ({ members, pedigree, years }) => {
          const rows = referenceRows(pedigree, members)
          const year = Int32Array.from(years, (y) => y ?? NO_YEAR)
          const ages = rows.flatMap((row) =>
            [pedigree.parentage.sire[row], pedigree.parentage.dam[row]]
              .filter((parent) => parent >= 0 && years[parent] !== undefined && years[row] !== undefined)
              .map((parent) => years[row]! - years[parent]!)
          )
          const naive = ages.length === 0 ? null : ages.reduce((a, b) => a + b, 0) / ages.length
          expect(generationInterval(rowsOf(pedigree.parentage), year, NO_YEAR, rows)).toBe(naive)
        }
      ),
      { numRuns: 200 }
    )
  })

  it("f_e equals 1 / Σ q² over founders counted by expanding the members' ancestor trees", () => {
    fc.assert(
      fc.property(withReference(25), ({ members, pedigree }) => {
        const rows = referenceRows(pedigree, members)
        // Each founder (a record or the phantom of one slot) gets (1/2)^g per path, over 1/N.
        const shares = new Map<string, number>()
        const climb = (b: number, share: number): void => {
          const parents = [pedigree.birthSire[b], pedigree.birthDam[b]]
          if (parents[0] < 0 && parents[1] < 0) {
            shares.set(`${b}`, (shares.get(`${b}`) ?? 0) + share)
            return
          }
          parents.forEach((p, side) => {
            if (p >= 0) climb(p, share / 2)
            else shares.set(`${b}/${side}`, (shares.get(`${b}/${side}`) ?? 0) + share / 2)
          })
        }
        const birthOf = new Map(Array.from(pedigree.rowOf, (row, b) => [row, b]))
        for (const row of rows) climb(birthOf.get(row)!, 1 / rows.length)
        const naive = 1 / [...shares.values()].reduce((sum, q) => sum + q * q, 0)
        const { effective, founders } = founderContributions(ancestryOf(rowsOf(pedigree.parentage), rows))
        expect(Math.abs(effective! - naive)).toBeLessThanOrEqual(1e-9 * naive)
        expect(founders).toBe(shares.size)
      }),
      { numRuns: 150 }
    )
  })

  it("the year figures equal a naive computation", () => {
    fc.assert(
      fc.property(
        pedigreeArbitrary(60).chain((pedigree) =>
          fc.record({
            pedigree: fc.constant(pedigree),
            years: fc.array(fc.option(fc.integer({ min: 2000, max: 2005 }), { nil: undefined }), {
              minLength: pedigree.rowOf.length,
              maxLength: pedigree.rowOf.length
            })
          })
        ),
        ({ pedigree, years }) => {
          const graph = pedigreeGraph(pedigree.parentage)
          const F = inbreedingCoefficients(graph)
          const { equivalent } = generationsOf(graph)
          const inbreeding = Float64Array.from(graph.node, (v) => F[v])
          const equivalentGenerations = Float64Array.from(graph.node, (v) => equivalent[v])
          const year = Int32Array.from(years, (y) => y ?? NO_YEAR)
          const rows = Array.from(year, (_, row) => row)
          const figures = yearFigures({ inbreeding, equivalentGenerations }, year, NO_YEAR, rows)
          const distinct = [...new Set(years.filter((y) => y !== undefined))].sort()
          expect(figures.map((f) => f.annee)).toEqual(distinct)
          for (const f of figures) {
            const group = rows.filter((row) => year[row] === f.annee)
            const Fs = group.map((row) => inbreeding[row])
            const deep = group.filter((row) => equivalentGenerations[row] > 1)
            const increases = deep.map((row) => 1 - (1 - inbreeding[row]) ** (1 / (equivalentGenerations[row] - 1)))
            const meanIncrease = increases.length === 0 ? null : increases.reduce((a, b) => a + b, 0) / increases.length
            expect(f.effectif).toBe(group.length)
            expect(f.consanguinite_moyenne).toBeCloseTo(Fs.reduce((a, b) => a + b, 0) / group.length, 12)
            expect(f.consanguins).toBe(Fs.filter((x) => x > 0).length)
            expect(f.au_moins_6_25).toBe(Fs.filter((x) => x >= 0.0625).length)
            expect(f.au_moins_12_5).toBe(Fs.filter((x) => x >= 0.125).length)
            expect(f.generations_equivalentes_moyennes).toBeCloseTo(group.reduce((a, row) => a + equivalentGenerations[row], 0) / group.length, 12)
            if (meanIncrease === null) expect(f.accroissement_moyen).toBeNull()
            else expect(f.accroissement_moyen).toBeCloseTo(meanIncrease, 12)
            if (meanIncrease === null || meanIncrease === 0) expect(f.taille_efficace).toBeNull()
            else expect(f.taille_efficace! * 2 * meanIncrease).toBeCloseTo(1, 9)
          }
        }
      ),
      { numRuns: 150 }
    )
  })

  it("ΔF is defined only beyond one equivalent generation", () => {
    expect(individualIncrease(0.25, 1)).toBeNull()
    expect(individualIncrease(0.25, 3)).toBeCloseTo(1 - Math.sqrt(0.75), 15)
  })
})
