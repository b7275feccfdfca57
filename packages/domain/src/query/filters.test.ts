import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import { dictionaryValue } from "../dataset/columns.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { idN } from "../testing/ids.ts"
import { InvalidParameter } from "./errors.ts"
import { type FilterInput, resolveFilters, type ResolvedFilters, splitValues } from "./filters.ts"

const records: Array<SourceRecord> = [
  { id: idN(0), nom: "JAPPELOUP", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 1975 },
  { id: idN(1), nom: "Éclair du Bois", race: "SELLE FRANÇAIS", sexe: "Femelle", robe: "Alezan Brûlé", annee_naissance: 2001 },
  { id: idN(2), nom: "STAR", race: "Trotteur Francais", sexe: "Hongre", statut_reproducteur: "Etalon Actif", performances: [
    { discipline: "TROT COURSE", indices: [{ code: "BTR", valeur: "+5" }] }
  ] }
]
const data = buildDataset(records)

const ok = (input: FilterInput): ResolvedFilters => {
  const result = resolveFilters(data, input)
  if (Result.isFailure(result)) throw new Error(result.failure.detail)
  return result.success
}
const failure = (input: FilterInput): InvalidParameter => {
  const result = resolveFilters(data, input)
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}

describe("resolveFilters", () => {
  it("splits comma lists and trims", () => {
    expect(splitValues(["a, b", " c ", 12])).toEqual(["a", "b", "c", "12"])
  })

  it("matches folded whole values, keeping every raw value that folds alike", () => {
    const f = ok({ race: ["selle francais"] })
    expect(f.race?.map((code) => dictionaryValue(data.race.values, code)).sort()).toEqual(["SELLE FRANÇAIS", "Selle Francais"])
    expect(ok({ robe: ["alezan brule"] }).robe?.map((c) => dictionaryValue(data.robe.values, c))).toEqual(["Alezan Brûlé"])
    expect(ok({ sexe: ["male,FEMELLE"] }).sexe).toEqual([1, 2])
    expect(ok({ sexe: ["indeter"] }).sexe).toEqual([4])
    expect(ok({ discipline: ["trot course"], indice: ["btr"] }).indice).toEqual([1])
    expect(ok({ statut_reproducteur: ["étalon actif"] }).statut).toEqual([1])
  })

  it("refuses values not admitted, including empty ones, naming the parameter", () => {
    const e = failure({ race: ["Selle Franc"] })
    expect(e).toBeInstanceOf(InvalidParameter)
    expect(e._tag).toBe("InvalidParameter")
    expect(e.parametre).toBe("race")
    expect(e.detail).toBe("La valeur «\u00a0Selle Franc\u00a0» n'est pas admise pour race.")
    expect(e.indice).toContain("/v1/referentiels/races")
    expect(e.indice).toContain("Selle Francais")
    expect(failure({ race: [""] }).parametre).toBe("race")
    expect(failure({ robe: ["Bai,"] }).parametre).toBe("robe")
    expect(failure({ sexe: ["M"] }).indice).toContain("/v1/referentiels/sexes")
    expect(failure({ statut_reproducteur: ["x"] }).parametre).toBe("statut_reproducteur")
    expect(failure({ indice: ["ZZZ"] }).indice).toContain("/v1/referentiels/codes_indice")
  })

  it("parses years: integers only, a year with no row matches nothing", () => {
    expect(ok({ annee_naissance: ["2001, 1975", 2001] }).annee).toEqual([1, 2])
    expect(ok({ annee_naissance: [1990] }).annee).toEqual([])
    expect(ok({ annee_min: 1976 }).annee).toEqual([2])
    expect(ok({ annee_min: 2002 }).annee).toEqual([])
    expect(ok({ annee_max: 2001, annee_min: 1975 }).annee).toEqual([1, 2])
    expect(ok({ annee_naissance: ["2001", "1975"], annee_max: 2000 }).annee).toEqual([1])
    expect(failure({ annee_naissance: ["20x1"] }).parametre).toBe("annee_naissance")
    expect(failure({ annee_naissance: ["2001.5"] }).parametre).toBe("annee_naissance")
    expect(failure({ annee_naissance: [""] }).parametre).toBe("annee_naissance")
    expect(failure({ annee_min: 2001.5 }).parametre).toBe("annee_min")
  })

  it("parses avec_performances and nom", () => {
    for (const v of ["true", "1", "OUI", "True"]) expect(ok({ avec_performances: v }).avecPerformances).toBe(true)
    for (const v of ["false", "0", "non", "NON"]) expect(ok({ avec_performances: v }).avecPerformances).toBe(false)
    expect(failure({ avec_performances: "yes" }).parametre).toBe("avec_performances")
    expect(ok({ nom: "éclair  du" }).nom).toEqual(["ECLAIR", "DU"])
    expect(failure({ nom: "  " }).parametre).toBe("nom")
    expect(failure({ nom: "--" }).parametre).toBe("nom")
  })

  it("leaves absent parameters undefined", () => {
    expect(ok({})).toEqual({
      race: undefined, robe: undefined, sexe: undefined, statut: undefined, annee: undefined,
      discipline: undefined, indice: undefined, nom: undefined, avecPerformances: undefined
    })
  })
})
