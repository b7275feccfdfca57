import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import {
  compareText,
  datasetArbitrary,
  filterInputArbitrary,
  type NaiveRow,
  naiveRows,
  naiveSelect,
  syntheticRecords
} from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { resolveFilters } from "./filters.ts"
import type { CountStats } from "./counting.ts"
import { BIT_ROW } from "./costs.ts"
import { clampRepartitionLimite, repartition, type Repartition } from "./repartition.ts"
import { REPARTITION_DIMENSIONS } from "../vocabulary.ts"
import { select } from "./select.ts"
import { type Selection, selectionOfRows, selectionRows } from "./selection.ts"

const get = (data: DatasetData, selection: Selection, dimension: string, limite?: number): Repartition => {
  const r = repartition(data, selection, dimension, limite)
  if (Result.isFailure(r)) throw new Error(r.failure.detail)
  return r.success
}

const valuesOf = (row: NaiveRow, dimension: string): Array<string> => {
  switch (dimension) {
    case "race":
      return row.record.race === undefined ? [] : [row.record.race]
    case "robe":
      return row.record.robe === undefined ? [] : [row.record.robe]
    case "sexe":
      return [row.sexe]
    case "statut_reproducteur":
      return row.record.statut_reproducteur === undefined ? [] : [row.record.statut_reproducteur]
    case "annee_naissance":
      return row.year === undefined ? [] : [String(row.year)]
    default:
      return [...row.disciplines]
  }
}

describe("repartition", () => {
  it("counts the selection per value, most numerous first (years chronological), sums consistent", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 70 }).chain((g) =>
          fc.tuple(
            fc.constant(g),
            fc.option(filterInputArbitrary(g.records), { nil: undefined, freq: 2 }),
            fc.constantFrom(...REPARTITION_DIMENSIONS),
            fc.option(fc.integer({ min: -2, max: 6 }), { nil: undefined })
          )
        ),
        ([{ data, records }, input, dimension, limite]) => {
          const model = naiveRows(records)
          const kept = input === undefined ? model.map((r) => r.row) : naiveSelect(model, input)
          const counts = new Map<string, number>()
          for (const row of kept) for (const v of valuesOf(model[row], dimension)) counts.set(v, (counts.get(v) ?? 0) + 1)
          let expected = [...counts].map(([valeur, nombre]) => ({ valeur, nombre }))
          if (dimension === "annee_naissance") expected.sort((a, b) => Number(a.valeur) - Number(b.valeur))
          else {
            expected.sort((a, b) => b.nombre - a.nombre || compareText(a.valeur, b.valeur))
            expected = expected.slice(0, clampRepartitionLimite(limite))
          }
          const resolved = resolveFilters(data, input ?? {})
          if (Result.isFailure(resolved)) throw new Error(resolved.failure.detail)
          const selection = select(data, resolved.success)
          const r = get(data, selection, dimension, limite)
          expect(r.dimension).toBe(dimension)
          expect(r.effectif_filtre).toBe(kept.length)
          expect(r.donnees).toEqual(expected)
          expect(r.effectif_affiche).toBe(expected.reduce((s, d) => s + d.nombre, 0))
          if (dimension !== "discipline") expect(r.effectif_affiche).toBeLessThanOrEqual(r.effectif_filtre)
          // The unfiltered fast path (postings lengths) agrees with counting every row.
          if (selection._tag === "All") {
            const every = selectionOfRows(Uint32Array.from({ length: data.size }, (_, i) => i))
            expect(get(data, every, dimension, limite)).toEqual(r)
          }
          // Counting against the selection's bits agrees with counting its listed rows.
          if (selection._tag === "Bits") {
            expect(get(data, selectionOfRows(selectionRows(selection) ?? new Uint32Array(0)), dimension, limite)).toEqual(r)
          }
        }
      ),
      { numRuns: 300 }
    )
  })

  it("counts a selection held as bits the cheapest way, as its listed rows would count", () => {
    const records = syntheticRecords(40000, 3)
    const data = buildDataset(records)
    const words = Math.ceil(data.size / 32)
    const strategies = new Set<string>()
    const inputs = [
      { sexe: ["Femelle", "Male"], race: ["Selle Francais", "Trotteur Francais", "Arabe"] },
      { avec_performances: "false" },
      { nom: "a", annee_max: 2000 },
      { nom: "l a", sexe: ["Hongre"] },
      { annee_min: 2020 }
    ]
    for (const input of inputs) {
      const selection = select(data, resolveFilters(data, input).pipe(Result.getOrThrow))
      expect(selection._tag).toBe("Bits")
      const listed = selectionOfRows(selectionRows(selection) ?? new Uint32Array(0))
      for (const dimension of REPARTITION_DIMENSIONS) {
        const stats: CountStats = { strategy: "", visited: 0 }
        expect(repartition(data, selection, dimension, 1000, stats)).toEqual(repartition(data, listed, dimension, 1000))
        strategies.add(stats.strategy)
        // Never more than a pass over the words and half the rows, whatever the selection.
        expect(stats.visited).toBeLessThanOrEqual(words + (BIT_ROW * data.size) / 2 + 1000)
      }
      expect(get(data, selection, "sexe").effectif_affiche).toBe(naiveSelect(naiveRows(records), input).length)
    }
    expect([...strategies].sort()).toEqual(["codes", "cumulative", "set", "unset"])
  }, 60_000)

  it("clamps limite into 1..1000, ignores it for years, refuses unknown dimensions", () => {
    const data = buildDataset(
      Array.from({ length: 30 }, (_, i) => ({ id: idN(i), race: `R${i % 7}`, annee_naissance: 2000 + (i % 5) }))
    )
    const all = select(data, resolveFilters(data, {}).pipe(Result.getOrThrow))
    expect(get(data, all, "race", 0).donnees.length).toBe(1)
    expect(get(data, all, "race", 5000).donnees.length).toBe(7)
    expect(get(data, all, "race").donnees.length).toBe(7)
    expect(get(data, all, "annee_naissance", 1).donnees.length).toBe(5)
    expect(clampRepartitionLimite(undefined)).toBe(50)
    expect(clampRepartitionLimite(1001)).toBe(1000)
    const bad = repartition(data, all, "races", 10)
    expect(Result.isFailure(bad) && bad.failure.parametre).toBe("dimension")
  })
})
