import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { dictionaryOf } from "../dataset/build/indexes.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { compareText, datasetArbitrary, naiveRows } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { MAX_MODALITES, type Modalite, referential, type Referentiel, topByFrequency } from "./referential.ts"
import { REFERENTIEL_DIMENSIONS } from "../vocabulary.ts"

const get = (data: DatasetData, dimension: string): Referentiel => {
  const r = referential(data, dimension)
  if (Result.isFailure(r)) throw new Error(r.failure.detail)
  return r.success
}

const naiveCounts = (values: Iterable<string | undefined>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const v of values) if (v !== undefined && v !== "") counts.set(v, (counts.get(v) ?? 0) + 1)
  return counts
}

const byFrequency = (counts: Map<string, number>): Array<Modalite> =>
  [...counts].map(([valeur, nombre]) => ({ valeur, nombre })).sort((a, b) => b.nombre - a.nombre || compareText(a.valeur, b.valeur))

describe("referential", () => {
  it("lists every value with its count, most frequent first, years chronological", () => {
    fc.assert(
      fc.property(datasetArbitrary({ maxLength: 60 }), ({ data, records }) => {
        const rows = naiveRows(records)
        const expected: Record<string, Array<Modalite>> = {
          races: byFrequency(naiveCounts(records.map((r) => r.race))),
          races_lien: byFrequency(naiveCounts(records.flatMap((r) => [r.pere?.race, r.mere?.race, r.pere_de_mere?.race]))),
          robes: byFrequency(naiveCounts(records.map((r) => r.robe))),
          sexes: ["Femelle", "Male", "Hongre", "Indeter"]
            .map((valeur) => ({ valeur, nombre: rows.filter((r) => r.sexe === valeur).length }))
            .sort((a, b) => b.nombre - a.nombre || compareText(a.valeur, b.valeur)),
          statuts_reproducteur: byFrequency(naiveCounts(records.map((r) => r.statut_reproducteur))),
          disciplines: byFrequency(naiveCounts(rows.flatMap((r) => [...r.disciplines]))),
          codes_indice: byFrequency(naiveCounts(rows.flatMap((r) => [...r.indices]))),
          annees_naissance: [...naiveCounts(records.map((r) => r.annee_naissance?.toString()))]
            .map(([valeur, nombre]) => ({ valeur, nombre }))
            .sort((a, b) => Number(a.valeur) - Number(b.valeur))
        }
        for (const dimension of REFERENTIEL_DIMENSIONS) {
          const r = get(data, dimension)
          expect(r.dimension).toBe(dimension)
          expect(r.donnees).toEqual(expected[dimension])
          expect(r.nombre_de_modalites).toBe(expected[dimension].length)
          expect(r.note).toBeUndefined()
        }
      }),
      { numRuns: 100 }
    )
  })

  it("truncates at 2000 values with a note and the real total", () => {
    const records = Array.from({ length: 2600 }, (_, i) => ({
      id: idN(i),
      race: i < 300 ? "Trotteur Francais" : `1'${String(i).padStart(4, "0")} (RACE)`
    }))
    const data = buildDataset(records)
    const r = get(data, "races")
    expect(r.nombre_de_modalites).toBe(2301)
    expect(r.donnees.length).toBe(MAX_MODALITES)
    expect(r.donnees[0]).toEqual({ valeur: "Trotteur Francais", nombre: 300 })
    expect(r.donnees[1]).toEqual({ valeur: "1'0300 (RACE)", nombre: 1 })
    expect(r.donnees[MAX_MODALITES - 1].valeur).toBe("1'2298 (RACE)")
    expect(r.note).toContain("2000")
    expect(r.note).toContain("2301")
    // Years are never cut.
    const years = buildDataset(Array.from({ length: 2100 }, (_, i) => ({ id: idN(i), annee_naissance: i })))
    const y = get(years, "annees_naissance")
    expect(y.donnees.length).toBe(2100)
    expect(y.note).toBeUndefined()
  })

  it("refuses an unknown dimension, listing the eight", () => {
    const data = buildDataset([{ id: idN(0) }])
    const r = referential(data, "race")
    if (Result.isSuccess(r)) throw new Error("expected a failure")
    expect(r.failure.parametre).toBe("dimension")
    for (const d of REFERENTIEL_DIMENSIONS) expect(r.failure.indice).toContain(d)
    expect(r.failure.indice).toContain("«\u00a0races\u00a0»")
  })

  it("the top k of a breakdown are the first k of the full order, ties by value", () => {
    // Characters on both sides of UTF-16's order against code points (U+E000–U+FFFF, above U+FFFF).
    const character = fc.constantFrom("a", "B", "é", "\uE000", "\uFFFD", "\u{10000}", "😀")
    const breakdown = fc.uniqueArray(fc.string({ unit: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), character), maxLength: 3 }), { maxLength: 80 }).chain((names) =>
      fc.record({
        values: fc.constant(["", ...names]),
        counts: fc.array(fc.nat(6), { minLength: names.length + 1, maxLength: names.length + 1 }),
        k: fc.integer({ min: 0, max: 90 })
      })
    )
    fc.assert(
      fc.property(breakdown, ({ values, counts, k }) => {
        const full = new Map<string, number>()
        for (let code = 1; code < values.length; code++) if (counts[code] > 0) full.set(values[code], counts[code])
        expect(topByFrequency(dictionaryOf(values), counts, k)).toEqual(byFrequency(full).slice(0, k))
      })
    )
  })
})
