import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { datasetArbitrary, filterInputArbitrary, naiveRows, naiveSelect, syntheticRecords } from "../testing/arbitraries.ts"
import { countBits } from "../dataset/bits.ts"
import { postingsCount } from "../dataset/columns.ts"
import { codeOfYear, type FilterInput, resolveFilters } from "./filters.ts"
import { prefixRange, prefixSet } from "./nameTokens.ts"
import { NAME_FILTER, ROW_FILTER } from "./costs.ts"
import { select, type SelectStats } from "./select.ts"
import { membership, selectionRows } from "./selection.ts"

const resolved = (data: Parameters<typeof resolveFilters>[0], input: FilterInput) => {
  const r = resolveFilters(data, input)
  if (Result.isFailure(r)) throw new Error(`${r.failure.parametre}: ${r.failure.detail}`)
  return r.success
}

/** The work of each input's selection, checked to be evaluated as bits and to keep the naive rows. */
const bitsOf = (records: ReadonlyArray<SourceRecord>, data: DatasetData, inputs: ReadonlyArray<FilterInput>): Array<SelectStats> =>
  inputs.map((input) => {
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    const selection = select(data, resolved(data, input), stats)
    expect(stats.strategy).toBe("bits")
    expect([...(selectionRows(selection) ?? [])]).toEqual(naiveSelect(naiveRows(records), input))
    return stats
  })

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
          const listed = selectionRows(selection)
          const rows = listed === undefined ? Array.from({ length: data.size }, (_, i) => i) : [...listed]
          expect(listed === undefined).toBe(selection._tag === "All")
          expect(rows).toEqual(expected)
          const has = membership(data, selection)
          const set = new Set(expected)
          for (let row = 0; row < data.size; row++) expect(has(row)).toBe(set.has(row))
          // A bitset holds exactly the rows (nothing past the last row), and its own test agrees.
          if (selection._tag === "Bits") {
            expect(countBits(selection.bits)).toBe(expected.length)
            for (let row = 0; row < data.size; row++) expect(selection.test(row)).toBe(set.has(row))
          }
        }
      ),
      { numRuns: 300 }
    )
    // Every evaluation path was checked against the model.
    for (const strategy of ["all", "list", "stored", "bits", "drive"]) expect(strategies).toContain(strategy)
  }, 60_000)

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
        const listed = selectionRows(selection)
        expect(listed === undefined ? Array.from({ length: data.size }, (_, i) => i) : [...listed]).toEqual(expected)
        if (stats.strategy === "bits") {
          const set = new Set(expected)
          for (let row = 0; row < data.size; row += 7) expect(membership(data, selection)(row)).toBe(set.has(row))
        }
      }),
      { numRuns: 60 }
    )
    expect(strategies).toContain("bits")
  }, 60_000)

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
  }, 30_000)

  it("reads a range of birth years from the cumulative year bitsets: two word passes at most, not its rows", () => {
    const records = syntheticRecords(40000, 5)
    const data = buildDataset(records)
    const words = Math.ceil(data.size / 32)
    // Two frequent sexes, "up to the last year" without "up to the year before the first", the count.
    for (const stats of bitsOf(records, data, [{ sexe: ["Femelle", "Male"], annee_min: 2000 }, { sexe: ["Femelle", "Male"], annee_min: 1985, annee_max: 2015 }])) {
      expect(stats.visited).toBe((2 + 2 + 1) * words)
    }
  }, 30_000)

  it("reads a one-letter name prefix from the Dataset's prefix bitset: word passes, not its postings", () => {
    const records = syntheticRecords(40000, 5)
    const data = buildDataset(records)
    const words = Math.ceil(data.size / 32)
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    const lone = select(data, resolved(data, { nom: "a" }), stats)
    // The kept bitset itself, no copy, its count stored.
    expect(stats.strategy).toBe("stored")
    expect(lone._tag === "Bits" ? lone.bits.buffer : undefined).toBe(data.names.prefixSets.bits.buffer)
    expect(lone.count).toBe(naiveSelect(naiveRows(records), { nom: "a" }).length)
    // One pass per filter (two for the years) and the count, whatever the postings of A-words.
    for (const bits of bitsOf(records, data, [{ nom: "a", avec_performances: "false", sexe: ["Femelle"] }, { nom: "l a", annee_max: 2010 }])) {
      expect(bits.visited).toBeLessThanOrEqual((2 + 2 + 1) * words)
    }
  }, 30_000)

  it("tests a small driver's rows against name prefixes on their tokens, without folding names", () => {
    // A year only 10 rows carry: it drives (a name test costs what about 20 column tests do).
    const records = syntheticRecords(40000, 5).map((r, i) => (i % 4000 === 0 ? { ...r, annee_naissance: 1950 } : r))
    const data = buildDataset(records)
    const stats: SelectStats = { driver: "", strategy: "", visited: 0 }
    const input = { annee_naissance: [1950], nom: "tamon" }
    const [lo, hi] = prefixRange(data.names.tokens, "TAMON")
    expect(prefixSet(data, lo, hi)).toBeUndefined()
    const selection = select(data, resolved(data, input), stats)
    expect(stats.strategy).toBe("drive")
    expect(stats.driver).toBe("annee")
    // The year's rows listed once, then each tested on its name's tokens (a few comparisons).
    const driverRows = postingsCount(data.annee.rows, codeOfYear(data.annee, 1950))
    expect(stats.visited).toBeLessThanOrEqual((1 + NAME_FILTER) * driverRows)
    expect([...(selectionRows(selection) ?? [])]).toEqual(naiveSelect(naiveRows(records), input))
  }, 30_000)

  it("answers the whole set without materialising it when there is no filter", () => {
    const data = buildDataset(syntheticRecords(50))
    const selection = select(data, resolved(data, {}))
    expect(selection._tag).toBe("All")
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
    // The year's few hundred rows listed and filtered once.
    expect(stats.visited).toBeLessThan(((1 + ROW_FILTER) * data.size) / 40)
    select(data, resolved(data, { sexe: ["Femelle"], nom: "staral" }), stats)
    expect(stats.driver).toBe("nom:STARAL")
  })
})
