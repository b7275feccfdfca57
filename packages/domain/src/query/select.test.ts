import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { datasetArbitrary, filterInputArbitrary, naiveRows, naiveSelect, syntheticRecords } from "../testing/arbitraries.ts"
import { type FilterInput, resolveFilters } from "./filters.ts"
import { membership, select, selectionRows, type SelectStats } from "./select.ts"

const resolved = (data: Parameters<typeof resolveFilters>[0], input: FilterInput) => {
  const r = resolveFilters(data, input)
  if (Result.isFailure(r)) throw new Error(`${r.failure.parametre}: ${r.failure.detail}`)
  return r.success
}

describe("select", () => {
  it("keeps exactly the rows a naive evaluation keeps, in file order", () => {
    const strategies = new Set<string>()
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 80 }).chain((g) => fc.tuple(fc.constant(g), filterInputArbitrary(g.records))),
        ([{ data, records }, input]) => {
          const expected = naiveSelect(naiveRows(records), input)
          const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
          const selection = select(data, resolved(data, input), stats)
          strategies.add(stats.strategy)
          expect(selection.count).toBe(expected.length)
          const listed = selectionRows(data, selection)
          const rows = listed === undefined ? Array.from({ length: data.size }, (_, i) => i) : [...listed]
          expect(listed === undefined).toBe(selection.all)
          if (!selection.all && selection.rows === undefined) expect(selection.test).toBeDefined()
          expect(rows).toEqual(expected)
          const has = membership(data, selection)
          const set = new Set(expected)
          for (let row = 0; row < data.size; row++) expect(has(row)).toBe(set.has(row))
          if (selection.test !== undefined) for (let row = 0; row < data.size; row++) expect(selection.test(row)).toBe(set.has(row))
        }
      ),
      { numRuns: 300 }
    )
    // Every evaluation path was checked against the model.
    for (const strategy of ["all", "list", "lazy-column", "mark", "bits", "drive"]) expect(strategies).toContain(strategy)
  })

  it("keeps exactly the rows a naive evaluation keeps on a Dataset large enough for bitsets to beat a driver", () => {
    const records = syntheticRecords(40000, 7)
    const data = buildDataset(records)
    const rows = naiveRows(records)
    const strategies = new Set<string>()
    fc.assert(
      fc.property(filterInputArbitrary(records), (input) => {
        const expected = naiveSelect(rows, input)
        const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
        const selection = select(data, resolved(data, input), stats)
        strategies.add(stats.strategy)
        expect(selection.count).toBe(expected.length)
        const listed = selectionRows(data, selection)
        expect(listed === undefined ? Array.from({ length: data.size }, (_, i) => i) : [...listed]).toEqual(expected)
        if (stats.strategy === "bits") {
          const set = new Set(expected)
          for (let row = 0; row < data.size; row += 7) expect(membership(data, selection)(row)).toBe(set.has(row))
        }
      }),
      { numRuns: 60 }
    )
    expect(strategies).toContain("bits")
  })

  it("evaluates large column filters together as bitsets: word operations, not rows", () => {
    const data = buildDataset(syntheticRecords(40000, 5))
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    // Each filter keeps about half of the rows.
    const input = { sexe: ["Femelle", "Male"], race: ["Selle Francais", "Trotteur Francais"], robe: ["Bai", "Gris", "Noir", "Alezan"] }
    const selection = select(data, resolved(data, input), stats)
    expect(stats.strategy).toBe("bits")
    // A pass over 40000 / 32 words per code and one for the count, far fewer than the driver's rows.
    expect(stats.visited).toBeLessThanOrEqual(12 * Math.ceil(data.size / 32))
    expect(selection.count).toBe(naiveSelect(naiveRows(syntheticRecords(40000, 5)), input).length)
  })

  it("reads a range of birth years from the year column's bit slices: 8 word passes, not its rows", () => {
    const records = syntheticRecords(40000, 5)
    const data = buildDataset(records)
    const words = Math.ceil(data.size / 32)
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    for (const input of [{ sexe: ["Femelle", "Male"], annee_min: 2000 }, { sexe: ["Femelle", "Male"], annee_min: 1985, annee_max: 2015 }]) {
      const selection = select(data, resolved(data, input), stats)
      expect(stats.strategy).toBe("bits")
      // Two frequent sexes, eight slices, the count: far fewer than the thousands of rows of the years.
      expect(stats.visited).toBe(11 * words)
      expect([...(selectionRows(data, selection) ?? [])]).toEqual(naiveSelect(naiveRows(records), input))
    }
  })

  it("answers the whole set without materialising it when there is no filter", () => {
    const data = buildDataset(syntheticRecords(50))
    const selection = select(data, resolved(data, {}))
    expect(selection.rows).toBeUndefined()
    expect(selection.all).toBe(true)
    expect(selection.count).toBe(50)
  })

  it("never writes into the Dataset's postings", () => {
    const data = buildDataset(syntheticRecords(2000, 3))
    const before = data.sexe.rows.rows.slice()
    const withPerf = data.withPerformances.slice()
    select(data, resolved(data, { sexe: ["Male"], avec_performances: "true" }))
    select(data, resolved(data, { avec_performances: "oui", sexe: ["Male", "Hongre"] }))
    expect(data.sexe.rows.rows).toEqual(before)
    expect(data.withPerformances).toEqual(withPerf)
  })

  it("drives from the smallest candidate set", () => {
    const data = buildDataset(syntheticRecords(20000, 5))
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    // A rare index code and a frequent sex: the index code drives.
    select(data, resolved(data, { sexe: ["Femelle"], annee_naissance: [1990] }), stats)
    expect(stats.driver).toBe("annee")
    expect(stats.visited).toBeLessThan(data.size / 10)
    select(data, resolved(data, { sexe: ["Femelle"], nom: "staral" }), stats)
    expect(stats.driver).toBe("nom:STARAL")
  })
})
