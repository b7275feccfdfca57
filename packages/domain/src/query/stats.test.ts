import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { Stats } from "../schemas/reference.ts"
import { arbitraryRecords, build } from "./record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { stats } from "./stats.ts"

const roundTrips = (value: Stats) => {
  const decoded = Schema.decodeUnknownSync(Stats)(value)
  expect(JSON.stringify(Schema.encodeSync(Stats)(decoded))).toBe(JSON.stringify(value))
}

const records: ReadonlyArray<SourceRecord> = [
  { id: idN(1), nom: "A", race: "Selle Francais", robe: "Bai", sexe: "Male", annee_naissance: 193, performances: [{ discipline: "DRESSAGE" }] },
  { id: idN(2), nom: "B", race: "Selle Francais", robe: "Alezan", sexe: "Femelle", annee_naissance: 2024, pere: { id: idN(1) } },
  { id: idN(3), nom: "C", race: "1'10\"2 (ASC6H)", sexe: "Femelle", mere: { id: idN(77), nom: "DANGLING" } },
  { id: idN(4), nom: "D", race: "Arabe", robe: "Bai", sexe: "Hongre", pere_de_mere: { nom: "NO ID", race: "AR" } },
  {
    id: idN(5),
    nom: "E",
    sexe: "Femelle",
    performances: [{ discipline: "TROT COURSE", indices: [{ code: "BTR" }] }, { discipline: "DRESSAGE" }, { texte: "no discipline" }]
  },
  { id: "unreadable", nom: "SKIPPED" }
]

describe("stats", () => {
  const data = build(records)
  const s = stats(data)

  it("counts records, filiations and performances", () => {
    expect(s.total).toBe(5)
    // A dangling parent still carries a readable id: C has a filiation; D's link has no id.
    expect(s.avec_filiation).toBe(2)
    expect(s.sans_filiation).toBe(3)
    expect(s.sans_filiation).toBe(data.anomalies.sans_filiation)
    expect(s.avec_performances).toBe(2)
    expect(s.sans_performances).toBe(3)
  })

  it("counts distinct values present, absent values excluded", () => {
    expect(s.nombre_de_races).toBe(3)
    expect(s.nombre_de_robes).toBe(2)
    expect(s.nombre_de_disciplines).toBe(2)
  })

  it("takes the year range from the anomalies, aberrant years included", () => {
    expect(s.annee_naissance_min).toBe(193)
    expect(s.annee_naissance_max).toBe(2024)
  })

  it("lists the four sexes by count descending, then value", () => {
    expect(s.par_sexe).toEqual([
      { valeur: "Femelle", nombre: 3 },
      { valeur: "Hongre", nombre: 1 },
      { valeur: "Male", nombre: 1 },
      { valeur: "Indeter", nombre: 0 }
    ])
  })

  it("warns about the meaning of 'sans performances'", () => {
    expect(s.avertissement).toMatch(/indice/)
    expect(s.avertissement).toMatch(/[Ss]ans performances/)
  })

  it("is computed once per Dataset and round-trips through its schema", () => {
    expect(stats(data)).toBe(s)
    roundTrips(s)
  })

  it("serves null years on an empty Dataset", () => {
    const empty = stats(build([]))
    expect(empty).toMatchObject({ total: 0, avec_filiation: 0, sans_filiation: 0, annee_naissance_min: null, annee_naissance_max: null })
    expect(empty.par_sexe?.map((t) => t.nombre)).toEqual([0, 0, 0, 0])
    roundTrips(empty)
  })

  it("keeps its sums on arbitrary records", () => {
    fc.assert(
      fc.property(arbitraryRecords, (recs) => {
        const d = build(recs)
        const t = stats(d)
        roundTrips(t)
        expect((t.avec_filiation ?? 0) + (t.sans_filiation ?? 0)).toBe(t.total)
        expect((t.avec_performances ?? 0) + (t.sans_performances ?? 0)).toBe(t.total)
        expect((t.par_sexe ?? []).reduce((sum, tranche) => sum + (tranche.nombre ?? 0), 0)).toBe(t.total)
        expect(new Set(recs.map((r) => r.race).filter((r) => r !== undefined)).size).toBe(t.nombre_de_races)
        const years = recs.flatMap((r) => (r.annee_naissance === undefined ? [] : [r.annee_naissance]))
        expect(t.annee_naissance_min).toBe(years.length === 0 ? null : Math.min(...years))
        expect(t.annee_naissance_max).toBe(years.length === 0 ? null : Math.max(...years))
      }),
      { numRuns: 60 }
    )
  })
})
