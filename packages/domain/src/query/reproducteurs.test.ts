import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { dictionaryValues } from "../dataset/columns.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { Reproducteurs } from "../schemas/progeny.ts"
import { compareText, INDEX_CODES, naiveRows, RACES, YEARS } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { foldValue } from "../text/fold.ts"
import { family, naiveParents, naiveSummary, naiveValue, SIRE, valuedRecordsArbitrary } from "./progeny.fixtures.ts"
import { reproducteurs, type ReproducteursInput } from "./reproducteurs.ts"

const ranked = (data: DatasetData, input: Partial<ReproducteursInput>, query: ReadonlyArray<readonly [string, string]> = []) => {
  const r = reproducteurs(data, { code: "ISO", limite: 20, offset: 0, ...input }, query)
  if (Result.isFailure(r)) throw new Error(r.failure.detail)
  return r.success
}

const refusal = (data: DatasetData, input: Partial<ReproducteursInput>) => {
  const r = reproducteurs(data, { code: "ISO", limite: 20, offset: 0, ...input }, [])
  if (Result.isSuccess(r)) throw new Error("admitted")
  return r.failure
}

describe("reproducteurs", () => {
  const data = buildDataset(family)

  it("ranks sires by their foals' mean, with produits_min", () => {
    const r = ranked(data, { produits_min: 1 })
    expect(r.code).toBe("ISO")
    expect(r.donnees).toEqual([
      {
        parent: { id: SIRE, nom: "SIRE", race: "Selle Francais", sexe: "Male" },
        produits: 4,
        moyenne: 122.5,
        mediane: 125,
        maximum: 130
      },
      { parent: { id: idN(11), nom: "BRAVO", race: "Selle Francais", sexe: "Male", annee_naissance: 2010 }, produits: 1, moyenne: 100, mediane: 100, maximum: 100 }
    ])
    expect(r.pagination).toEqual({ total: 2, limite: 20, offset: 0, suivant: null, precedent: null })
    // The default produits_min is 5: SIRE has 4.
    expect(ranked(data, {}).donnees).toEqual([])
    expect(ranked(data, { produits_min: 2 }).donnees.map((d) => d.parent.nom)).toEqual(["SIRE"])
  })

  it("ranks dams with sexe=Femelle, filters the parent's breed (folded) and the foals' years", () => {
    expect(ranked(data, { sexe: "Femelle", produits_min: 1 }).donnees.map((d) => [d.parent.nom, d.moyenne, d.mediane])).toEqual([
      ["MARE", 120, 120],
      ["ALPHA", 100, 100]
    ])
    expect(ranked(data, { produits_min: 1, race: ["selle francais"] }).pagination.total).toBe(2)
    expect(ranked(data, { produits_min: 1, race: ["Trotteur Francais"] }).pagination.total).toBe(0)
    // Born 2011 on: CHARLIE 110 and ECHO 130 (DELTA, without a year, is left out).
    expect(ranked(data, { produits_min: 1, annee_min: 2011 }).donnees.map((d) => [d.parent.nom, d.produits, d.moyenne])).toEqual([
      ["SIRE", 2, 120],
      ["BRAVO", 1, 100]
    ])
    expect(ranked(data, { produits_min: 1, annee_max: 2010 }).donnees.map((d) => [d.parent.nom, d.produits, d.mediane])).toEqual([
      ["SIRE", 2, 125]
    ])
    expect(ranked(data, { produits_min: 1, annee_min: 2013, annee_max: 2012 }).pagination.total).toBe(0)
  })

  it("breaks ties of the mean by produits, then folded name, then id, with and without year bounds", () => {
    const sire = (n: number, nom: string) => ({ id: idN(n), nom, sexe: "Male" })
    const foal = (n: number, pere: number) => ({
      id: idN(n),
      nom: `F${n}`,
      annee_naissance: 2010,
      pere: { id: idN(pere) },
      performances: [{ discipline: "CSO", indices: [{ code: "ISO", valeur: "100" }] }]
    })
    const tied = buildDataset([
      sire(1, "ZZZ"), sire(2, "aaa"), sire(3, "Éclair"), sire(4, "ECLAIR"), sire(5, "MANY"),
      foal(10, 1), foal(11, 2), foal(12, 3), foal(13, 4), foal(14, 5), foal(15, 5)
    ])
    const sameName = [idN(3), idN(4)].sort()
    const expected = [idN(5), idN(2), ...sameName, idN(1)]
    expect(ranked(tied, { produits_min: 1 }).donnees.map((d) => d.parent.id)).toEqual(expected)
    expect(ranked(tied, { produits_min: 1, annee_min: 2000 }).donnees.map((d) => d.parent.id)).toEqual(expected)
  })

  it("pages with links keeping the query", () => {
    const r = ranked(data, { produits_min: 1, limite: 1, offset: 0 }, [["code", "iso"], ["produits_min", "1"], ["limite", "1"]])
    expect(r.donnees.map((d) => d.parent.nom)).toEqual(["SIRE"])
    expect(r.pagination.suivant).toBe("/v1/stats/reproducteurs?code=iso&produits_min=1&limite=1&offset=1")
    expect(ranked(data, { produits_min: 1, limite: 1, offset: 1 }).donnees.map((d) => d.parent.nom)).toEqual(["BRAVO"])
  })

  it("takes the code folded and refuses an unknown one, a list, or an unknown breed, with hints", () => {
    expect(ranked(data, { code: " iso ", produits_min: 1 }).code).toBe("ISO")
    const unknown = refusal(data, { code: "ISX" })
    expect(unknown.parametre).toBe("code")
    expect(unknown.indice).toMatch(/^valeurs les plus proches : «\u00a0ISO\u00a0».* ; valeurs admises : \/v1\/referentiels\/codes_indice$/)
    expect(refusal(data, { code: "ISO,BTR" }).parametre).toBe("code")
    expect(refusal(data, { race: ["Selle Francai"] }).parametre).toBe("race")
  })

  it("matches a naive model on random datasets, and encodes as its schema", () => {
    fc.assert(
      fc.property(
        fc.oneof(valuedRecordsArbitrary(60), valuedRecordsArbitrary(60, true)),
        fc.record({
          code: fc.constantFrom(...INDEX_CODES),
          sexe: fc.option(fc.constantFrom("Male" as const, "Femelle" as const), { nil: undefined }),
          race: fc.option(fc.subarray([...RACES], { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 3 }),
          annee_min: fc.option(fc.constantFrom(...YEARS), { nil: undefined }),
          annee_max: fc.option(fc.constantFrom(...YEARS), { nil: undefined }),
          produits_min: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 4 }),
          limite: fc.integer({ min: 1, max: 4 }),
          offset: fc.integer({ min: 0, max: 4 })
        }),
        (records, input) => {
          const data = buildDataset(records)
          if (!dictionaryValues(data.indice.values).includes(input.code)) return
          // A breed no record carries is refused (tested above).
          if (input.race !== undefined && !input.race.every((race) => dictionaryValues(data.race.values).includes(race))) return
          expectNaive(data, records, input)
        }
      ),
      { numRuns: 150 }
    )
  })

  // The plain URI (no breed, no years, the default minimum) answers from the code's kept ranking,
  // made by the first such question: the first and the later ones answer alike.
  it("answers the plain URI as the naive model, on its first question and the next", () => {
    fc.assert(
      fc.property(
        valuedRecordsArbitrary(80, true),
        fc.constantFrom(...INDEX_CODES),
        fc.array(fc.record({
          sexe: fc.option(fc.constantFrom("Male" as const, "Femelle" as const), { nil: undefined }),
          limite: fc.integer({ min: 1, max: 3 }),
          offset: fc.integer({ min: 0, max: 3 })
        }), { minLength: 2, maxLength: 4 }),
        (records, code, questions) => {
          const data = buildDataset(records)
          if (!dictionaryValues(data.indice.values).includes(code)) return
          for (const question of questions) expectNaive(data, records, { code, ...question })
        }
      ),
      { numRuns: 150 }
    )
  })
})

/** `reproducteurs` over `data` (built from `records`) answers `input` as the naive model does, and encodes as its schema. */
const expectNaive = (
  data: DatasetData,
  records: ReadonlyArray<SourceRecord>,
  input: Pick<ReproducteursInput, "code" | "limite" | "offset"> & Partial<ReproducteursInput>
) => {
  const r = ranked(data, input)
  expect(Schema.encodeSync(Reproducteurs)(r)).toEqual(r)
  const rows = naiveRows(records)
  const parents = naiveParents(records)
  const races = input.race === undefined ? undefined : new Set(input.race.map(foldValue))
  const bounded = input.annee_min !== undefined || input.annee_max !== undefined
  const expected = records.flatMap((record, p) => {
    if (rows[p].sexe !== (input.sexe ?? "Male")) return []
    if (races !== undefined && (record.race === undefined || !races.has(foldValue(record.race)))) return []
    const values = records.flatMap((child, c) => {
      if (parents[c].pere !== p && parents[c].mere !== p) return []
      const year = rows[c].year
      if (bounded && (year === undefined || year < (input.annee_min ?? -Infinity) || year > (input.annee_max ?? Infinity))) return []
      const v = naiveValue(child, input.code)
      return v === undefined ? [] : [v.valeur]
    })
    return values.length < (input.produits_min ?? 5) ? [] : [{ p, produits: values.length, ...naiveSummary(values) }]
  }).sort((a, b) =>
    b.moyenne - a.moyenne || b.produits - a.produits || compareText(rows[a.p].nameKey, rows[b.p].nameKey) ||
    compareText(records[a.p].id ?? "", records[b.p].id ?? "")
  )
  expect(r.pagination.total).toBe(expected.length)
  expect(r.donnees.map((d) => [d.parent.id, d.produits, d.moyenne, d.mediane, d.maximum])).toEqual(
    expected.slice(input.offset, input.offset + input.limite).map((e) => [records[e.p].id, e.produits, e.moyenne, e.mediane, e.maximum])
  )
}
