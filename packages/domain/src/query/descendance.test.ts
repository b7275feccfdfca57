import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { Descendance } from "../schemas/pedigree.ts"
import {
  DESCENDANCE_LIMITE_DEFAUT,
  DESCENDANCE_LIMITE_MAX,
  DESCENDANCE_LIMITE_MIN,
  DESCENDANCE_OFFSET_DEFAUT,
  descendance
} from "./descendance.ts"
import { arbitraryRecords, build, rowOf } from "./record.fixtures.ts"
import { idN } from "../testing/ids.ts"

const roundTrips = (value: Descendance) => {
  const decoded = Schema.decodeUnknownSync(Descendance)(value)
  expect(JSON.stringify(Schema.encodeSync(Descendance)(decoded))).toBe(JSON.stringify(value))
}

const SIRE = idN(1)
const MARE = idN(2)
const child = (n: number, nom: string, annee?: number, extra: Partial<SourceRecord> = {}): SourceRecord => ({
  id: idN(n),
  nom,
  race: "Selle Francais",
  sexe: "Femelle",
  pere: { id: SIRE, nom: "SIRE", race: "SF" },
  ...(annee === undefined ? {} : { annee_naissance: annee }),
  ...extra
})

const records: ReadonlyArray<SourceRecord> = [
  { id: SIRE, nom: "SIRE", race: "Selle Francais", sexe: "Male", slug: "sire" },
  { id: MARE, nom: "MARE", sexe: "Femelle" },
  child(10, "ZED", 2001),
  child(11, "NO YEAR"),
  child(12, "EMILE", 2001),
  child(13, "Élan", 2001, { mere: { id: MARE, nom: "MARE", race: "AA" } }),
  child(14, "OLD", 1999),
  child(15, "EMILE", 2001, { sexe: "Male" }),
  child(16, "AAA NO YEAR")
]

describe("descendance", () => {
  const data = build(records)
  const sire = rowOf(data, SIRE)

  it("exports its defaults and bounds", () => {
    expect([DESCENDANCE_LIMITE_DEFAUT, DESCENDANCE_LIMITE_MIN, DESCENDANCE_LIMITE_MAX, DESCENDANCE_OFFSET_DEFAUT]).toEqual([50, 1, 100, 0])
  })

  it("lists direct offspring by year (absent last), folded name, then file order", () => {
    const d = descendance(data, sire)
    expect(d.total).toBe(7)
    expect(d.limite).toBe(50)
    expect(d.offset).toBe(0)
    expect(d.donnees.map((p) => p.nom)).toEqual(["OLD", "Élan", "EMILE", "EMILE", "ZED", "AAA NO YEAR", "NO YEAR"])
    // The two EMILE of 2001 keep file order.
    expect(d.donnees[2].id).toBe(idN(12))
    expect(d.donnees[3].id).toBe(idN(15))
    roundTrips(d)
  })

  it("serves Produit rows, fiche_disponible always true, year omitted when absent", () => {
    const d = descendance(data, sire)
    expect(d.donnees[0]).toEqual({ id: idN(14), nom: "OLD", race: "Selle Francais", sexe: "Femelle", fiche_disponible: true, annee_naissance: 1999 })
    const last = d.donnees[6]
    expect(Object.keys(last)).toEqual(["id", "nom", "race", "sexe", "fiche_disponible"])
    expect(d.donnees.every((p) => p.fiche_disponible)).toBe(true)
  })

  it("describes the subject itself as parent, with its record's race", () => {
    expect(descendance(data, sire).parent).toEqual({ id: SIRE, nom: "SIRE", race: "Selle Francais", fiche_disponible: true })
    // A record without race: the key is omitted, as in any Reference.
    const mare = descendance(data, rowOf(data, MARE))
    expect(mare.parent).toEqual({ id: MARE, nom: "MARE", fiche_disponible: true })
    expect(mare.total).toBe(1)
    expect(mare.donnees.map((p) => p.id)).toEqual([idN(13)])
  })

  it("slices with limite and offset, bringing limite back into 1..100", () => {
    expect(descendance(data, sire, 2, 1).donnees.map((p) => p.id)).toEqual([idN(13), idN(12)])
    const zero = descendance(data, sire, 0)
    expect(zero.limite).toBe(1)
    expect(zero.donnees).toHaveLength(1)
    expect(descendance(data, sire, 500).limite).toBe(100)
    expect(descendance(data, sire, -4).limite).toBe(1)
    expect(descendance(data, sire, 2.7).limite).toBe(2)
    expect(descendance(data, sire, 3, -5).offset).toBe(0)
    const tail = descendance(data, sire, 5, 5)
    expect(tail.donnees.map((p) => p.nom)).toEqual(["AAA NO YEAR", "NO YEAR"])
  })

  it("answers an empty page with the total unchanged past the end", () => {
    for (const offset of [7, 8, 10_000, 1e12]) {
      const d = descendance(data, sire, 50, offset)
      expect(d.donnees).toEqual([])
      expect(d.total).toBe(7)
      expect(d.offset).toBe(offset)
      roundTrips(d)
    }
  })

  it("answers an empty list for a record without offspring", () => {
    const d = descendance(data, rowOf(data, idN(10)))
    expect(d.total).toBe(0)
    expect(d.donnees).toEqual([])
  })

  it("caps a large progeny at 100 rows per page", () => {
    const many: Array<SourceRecord> = [{ id: SIRE, nom: "SIRE" }]
    for (let i = 0; i < 130; i++) many.push(child(100 + i, `P${String(i).padStart(3, "0")}`, 2000 + (i % 5)))
    const big = build(many)
    const d = descendance(big, rowOf(big, SIRE), 1000, 0)
    expect(d.total).toBe(130)
    expect(d.donnees).toHaveLength(100)
    const years = d.donnees.map((p) => p.annee_naissance ?? Infinity)
    expect(years).toEqual([...years].sort((a, b) => a - b))
    expect(descendance(big, rowOf(big, SIRE), 100, 100).donnees).toHaveLength(30)
  })

  it("holds its invariants on arbitrary records", () => {
    fc.assert(
      fc.property(arbitraryRecords, fc.integer({ min: -3, max: 120 }), fc.integer({ min: -3, max: 20 }), (recs, limite, offset) => {
        const d = build(recs)
        for (let r = 0; r < d.size; r++) {
          const page = descendance(d, r, limite, offset)
          roundTrips(page)
          let products = 0
          for (let c = 0; c < d.size; c++) if (d.links.pere.row[c] === r || d.links.mere.row[c] === r) products++
          expect(page.total).toBe(products)
          expect(page.donnees.length).toBe(Math.max(0, Math.min(page.limite, products - page.offset)))
          expect(JSON.stringify(page)).not.toContain("naisseur")
        }
      }),
      { numRuns: 40 }
    )
  })
})
