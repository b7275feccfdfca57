import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { buildDataset, inMemoryProvenance } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { coancestryTable, pedigreeArbitrary } from "../genetics/pedigree.fixtures.ts"
import { Etalons } from "../schemas/etalons.ts"
import { idN } from "../testing/ids.ts"
import { accouplement } from "./consanguinite/consanguinite.ts"
import { etalons, type EtalonsInput, foalCoefficient } from "./etalons.ts"

const PROVENANCE = { ...inMemoryProvenance(0), ingestedAt: "2003-06-01T00:00:00.000Z" }

const ranked = (data: DatasetData, mere: number, input: Partial<EtalonsInput> = {}, pairs: ReadonlyArray<readonly [string, string]> = []): Etalons => {
  const answer = etalons(data, mere, { limite: 100, offset: 0, ...input }, pairs)
  if (Result.isFailure(answer)) throw new Error(answer.failure.detail)
  Schema.decodeUnknownSync(Etalons)(answer.success, { onExcessProperty: "error" })
  return answer.success
}

describe("etalons by hand", () => {
  // S × D1 -> MARE; S × D2 -> HALF (her half-brother); U unrelated; S her sire; G a gelding.
  const record = (n: number, nom: string, sexe: string, pere?: number, mere?: number): SourceRecord => ({
    id: idN(n), nom, race: "Selle Francais", sexe, annee_naissance: 2000 + n,
    ...(pere === undefined ? {} : { pere: { id: idN(pere), nom: "" } }),
    ...(mere === undefined ? {} : { mere: { id: idN(mere), nom: "" } })
  })
  const data = buildDataset([
    record(1, "SIRE", "Male"),
    record(2, "D UN", "Femelle"),
    record(3, "D DEUX", "Femelle"),
    record(4, "JUMENT", "Femelle", 1, 2),
    record(5, "DEMI FRERE", "Male", 1, 3),
    record(6, "ETRANGER", "Male"),
    record(7, "HONGRE", "Hongre", 1, 3)
  ], PROVENANCE)

  it("a half-brother ranks after an unrelated stallion (0.125 and 0), her sire last at 0.25", () => {
    const body = ranked(data, 3)
    expect(body.mere).toEqual({ id: idN(4), nom: "JUMENT", race: "Selle Francais", annee_naissance: 2004 })
    expect(body.donnees.map((d) => [d.etalon.nom, d.coefficient, d.produits])).toEqual([
      ["ETRANGER", 0, 0],
      ["DEMI FRERE", 0.125, 0],
      ["SIRE", 0.25, 3]
    ])
    expect(body.pagination).toEqual({ total: 3, limite: 100, offset: 0, suivant: null, precedent: null })
    // One pair alone (a test-mating page): the same coefficients.
    expect([5, 4, 0].map((pere) => foalCoefficient(data, pere, 3))).toEqual([0, 0.125, 0.25])
  })

  it("coefficient_max keeps the candidates at or below it; pages follow the list's rules", () => {
    expect(ranked(data, 3, { coefficient_max: 0.125 }).donnees.map((d) => d.etalon.nom)).toEqual(["ETRANGER", "DEMI FRERE"])
    expect(ranked(data, 3, { coefficient_max: 0 }).pagination.total).toBe(1)
    const page = ranked(data, 3, { limite: 1, offset: 1 }, [["mere", idN(4)], ["limite", "1"], ["offset", "1"]])
    expect(page.donnees.map((d) => d.etalon.nom)).toEqual(["DEMI FRERE"])
    expect(page.pagination).toEqual({
      total: 3, limite: 1, offset: 1,
      suivant: `/v1/accouplements/etalons?mere=${idN(4)}&limite=1&offset=2`,
      precedent: `/v1/accouplements/etalons?mere=${idN(4)}&limite=1&offset=0`
    })
    expect(ranked(data, 3, { offset: 5 }).donnees).toEqual([])
  })

  it("the list's filters select the candidates", () => {
    expect(ranked(data, 3, { nom: "etranger" }).donnees.map((d) => d.etalon.nom)).toEqual(["ETRANGER"])
    expect(ranked(data, 3, { annee_max: 2005 }).pagination.total).toBe(2)
    const refused = etalons(data, 3, { limite: 20, offset: 0, robe: ["Pie"] }, [])
    expect(Result.isFailure(refused) && refused.failure.parametre).toBe("robe")
  })
})

describe("etalons on random pedigrees", () => {
  it("every coefficient is the tabular F of the foal without a cut (1e-12), and /v1/accouplements' at 12 generations when the foal's pedigree fits", () => {
    fc.assert(
      fc.property(pedigreeArbitrary(36), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }), fc.integer({ min: 1, max: 5 }), ({ birthDam, birthSire, rowOf }, males, limite) => {
        const n = rowOf.length
        const records: Array<SourceRecord> = new Array(n)
        const birthOf = new Map<string, number>()
        for (let b = 0; b < n; b++) {
          birthOf.set(idN(b + 1), b)
          records[rowOf[b]] = {
            id: idN(b + 1), nom: `N${b % 7}`, race: "Selle Francais", sexe: males[b] ? "Male" : "Femelle",
            ...(birthSire[b] < 0 ? {} : { pere: { id: idN(birthSire[b] + 1), nom: "" } }),
            ...(birthDam[b] < 0 ? {} : { mere: { id: idN(birthDam[b] + 1), nom: "" } })
          }
        }
        const data = buildDataset(records, PROVENANCE)
        const table = coancestryTable(birthSire, birthDam)
        for (let m = 0; m < n; m++) {
          if (males[m]) continue
          const mare = rowOf[m]
          const body = ranked(data, mare)
          const candidates = males.slice(0, n).filter((male, b) => male && b !== m).length
          expect(body.pagination.total).toBe(candidates)
          let previous: Etalons["donnees"][number] | undefined
          for (const d of body.donnees) {
            const b = birthOf.get(d.etalon.id)!
            expect(males[b]).toBe(true)
            expect(Math.abs(d.coefficient - table[m][b])).toBeLessThan(1e-12)
            const row = rowOf[b]
            expect(foalCoefficient(data, row, mare)).toBe(d.coefficient)
            if (data.genetics.longestLine[row] <= 11 && data.genetics.longestLine[mare] <= 11) {
              expect(Math.abs(d.coefficient - accouplement(data, row, mare, 12).coefficient)).toBeLessThan(1e-12)
            }
            if (previous !== undefined) {
              expect(d.coefficient).toBeGreaterThanOrEqual(previous.coefficient)
              if (d.coefficient === previous.coefficient) expect(d.produits).toBeLessThanOrEqual(previous.produits)
              // Then by name (the names fold as written here), then by id.
              if (d.coefficient === previous.coefficient && d.produits === previous.produits) {
                const before = previous.etalon.nom === d.etalon.nom ? previous.etalon.id < d.etalon.id : previous.etalon.nom! < d.etalon.nom!
                expect(before).toBe(true)
              }
            }
            previous = d
          }
          // Pages of any size, one after the other, give the same ranking; coefficient_max cuts it.
          const paged: Array<string> = []
          for (let offset = 0; offset < candidates; offset += limite) {
            paged.push(...ranked(data, mare, { limite, offset }).donnees.map((d) => d.etalon.id))
          }
          expect(paged).toEqual(body.donnees.map((d) => d.etalon.id))
          const max = body.donnees[Math.floor(body.donnees.length / 2)]?.coefficient ?? 0
          const cut = ranked(data, mare, { coefficient_max: max })
          expect(cut.donnees).toEqual(body.donnees.filter((d) => d.coefficient <= max))
        }
      }),
      { numRuns: 60 }
    )
  })
})
