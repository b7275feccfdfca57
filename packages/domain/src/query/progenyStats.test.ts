import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { StatistiquesDescendance } from "../schemas/progeny.ts"
import { compareText, INDEX_CODES, naiveRows } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { family, MARE, naiveDiscipline, naiveParents, naiveSummary, naiveValue, SIRE, valuedRecordsArbitrary } from "./progeny.fixtures.ts"
import { statistiquesDescendance } from "./progenyStats.ts"
import { rowOf } from "./record.fixtures.ts"

describe("statistiquesDescendance", () => {
  const data = buildDataset(family)

  it("counts a sire's foals by year, sex and breed, and its distinct grand-foals", () => {
    const s = statistiquesDescendance(data, rowOf(data, SIRE))
    expect(s.parent).toEqual({ id: SIRE, nom: "SIRE", race: "Selle Francais", fiche_disponible: true })
    expect(s.produits).toBe(6)
    // GOLF is by two of the foals: counted once.
    expect(s.petits_produits).toBe(2)
    expect(s.par_annee).toEqual([{ annee: 2010, nombre: 2 }, { annee: 2011, nombre: 1 }, { annee: 2012, nombre: 2 }])
    expect(s.sans_annee).toBe(1)
    expect(s.par_sexe).toEqual([{ valeur: "Femelle", nombre: 3 }, { valeur: "Hongre", nombre: 2 }, { valeur: "Male", nombre: 1 }])
    expect(s.par_race).toEqual([{ valeur: "Selle Francais", nombre: 4 }, { valeur: "Trotteur Francais", nombre: 1 }])
    // DELTA's latest ISO does not read: it holds no value.
    expect(s.avec_indices).toBe(4)
  })

  it("summarizes each code: even median, latest index, first undated, ties by name, codes by count then code", () => {
    const s = statistiquesDescendance(data, rowOf(data, SIRE))
    expect(s.indices.map((i) => [i.code, i.produits])).toEqual([["ISO", 4], ["BTR", 1], ["IDR", 1]])
    expect(s.indices[0]).toEqual({
      code: "ISO",
      discipline: "CSO",
      produits: 4,
      moyenne: 122.5,
      mediane: 125,
      maximum: 130,
      meilleurs: [
        { id: idN(11), nom: "BRAVO", race: "Selle Francais", sexe: "Male", annee_naissance: 2010, valeur: 130, annee: 2016 },
        { id: idN(14), nom: "ECHO", race: "Selle Francais", sexe: "Femelle", annee_naissance: 2012, valeur: 130, annee: 2015 },
        { id: idN(10), nom: "ALPHA", race: "Selle Francais", sexe: "Femelle", annee_naissance: 2010, valeur: 120, annee: 2015 },
        { id: idN(12), nom: "CHARLIE", race: "Trotteur Francais", sexe: "Hongre", annee_naissance: 2011, valeur: 110 }
      ]
    })
    expect(s.indices[1]).toMatchObject({ code: "BTR", discipline: "TROT", moyenne: -3.5, mediane: -3.5, maximum: -3.5 })
  })

  it("gives a dam the odd median of her foals", () => {
    const s = statistiquesDescendance(data, rowOf(data, MARE))
    expect(s.produits).toBe(3)
    expect(s.indices[0]).toMatchObject({ code: "ISO", produits: 3, moyenne: 120, mediane: 120, maximum: 130 })
  })

  it("answers a horse without foals with zeros and empty lists", () => {
    const s = statistiquesDescendance(data, rowOf(data, idN(17)))
    expect(s).toEqual({
      parent: { id: idN(17), nom: "HOTEL", fiche_disponible: true },
      produits: 0,
      petits_produits: 0,
      par_annee: [],
      sans_annee: 0,
      par_sexe: [],
      par_race: [],
      avec_indices: 0,
      indices: []
    })
  })

  it("matches a naive model on random datasets, and encodes as its schema", () => {
    fc.assert(
      fc.property(fc.oneof(valuedRecordsArbitrary(50), valuedRecordsArbitrary(50, true)), (records) => {
        const data = buildDataset(records)
        const rows = naiveRows(records)
        const parents = naiveParents(records)
        const order = (a: number, b: number) =>
          compareText(rows[a].nameKey, rows[b].nameKey) || compareText(records[a].id ?? "", records[b].id ?? "")
        for (let p = 0; p < records.length; p++) {
          const s = statistiquesDescendance(data, p)
          expect(Schema.encodeSync(StatistiquesDescendance)(s)).toEqual(s)
          const children = records.flatMap((_, c) => (parents[c].pere === p || parents[c].mere === p ? [c] : []))
          expect(s.produits).toBe(children.length)
          const grand = new Set(records.flatMap((_, g) => (children.includes(parents[g].pere) || children.includes(parents[g].mere) ? [g] : [])))
          expect(s.petits_produits).toBe(grand.size)
          const years = new Map<number, number>()
          for (const c of children) if (rows[c].year !== undefined) years.set(rows[c].year!, (years.get(rows[c].year!) ?? 0) + 1)
          expect(s.par_annee).toEqual([...years].sort((a, b) => a[0] - b[0]).map(([annee, nombre]) => ({ annee, nombre })))
          expect(s.sans_annee).toBe(children.filter((c) => rows[c].year === undefined).length)
          const tally = (values: ReadonlyArray<string | undefined>) => {
            const m = new Map<string, number>()
            for (const v of values) if (v !== undefined) m.set(v, (m.get(v) ?? 0) + 1)
            return [...m].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).map(([valeur, nombre]) => ({ valeur, nombre }))
          }
          expect(s.par_sexe).toEqual(tally(children.map((c) => rows[c].sexe)))
          expect(s.par_race).toEqual(tally(children.map((c) => records[c].race)))
          expect(s.avec_indices).toBe(children.filter((c) => INDEX_CODES.some((code) => naiveValue(records[c], code) !== undefined)).length)
          const expected = INDEX_CODES.flatMap((code) => {
            const valued = children.flatMap((c) => {
              const v = naiveValue(records[c], code)
              return v === undefined ? [] : [{ c, ...v }]
            })
            if (valued.length === 0) return []
            valued.sort((a, b) => b.valeur - a.valeur || order(a.c, b.c))
            const discipline = naiveDiscipline(records, code)
            return [{
              code,
              ...(discipline === undefined ? {} : { discipline }),
              produits: valued.length,
              ...naiveSummary(valued.map((v) => v.valeur)),
              meilleurs: valued.slice(0, 5).map((v) => ({
                id: records[v.c].id,
                nom: records[v.c].nom ?? "",
                race: records[v.c].race ?? "",
                sexe: rows[v.c].sexe,
                ...(rows[v.c].year === undefined ? {} : { annee_naissance: rows[v.c].year }),
                valeur: v.valeur,
                ...(v.annee === undefined ? {} : { annee: v.annee })
              }))
            }]
          }).sort((a, b) => b.produits - a.produits || compareText(a.code, b.code))
          expect(s.indices).toEqual(expected)
        }
      }),
      { numRuns: 60 }
    )
  })
})
