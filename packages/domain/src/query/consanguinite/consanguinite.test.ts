import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import type { DatasetData } from "../../dataset/DatasetData.ts"
import type { SourceRecord } from "../../dataset/SourceRecord.ts"
import { Accouplement, Consanguinite } from "../../schemas/consanguinite.ts"
import { build, rowOf } from "../record.fixtures.ts"
import { idN } from "../../testing/ids.ts"
import { Coancestry } from "./coancestry.ts"
import { accouplement, consanguinite, CONSANGUINITE_GENERATIONS_DEFAUT } from "./consanguinite.ts"
import { cutGraph } from "./cutGraph.ts"

/** Each named animal's [sire, dam] (null: unknown); animals named only as parents have none. */
type Family = Readonly<Record<string, readonly [string | null, string | null]>>

interface Built {
  readonly data: DatasetData
  readonly row: (name: string) => number
  readonly id: (name: string) => string
}

const family = (spec: Family): Built => {
  const names = [...new Set(Object.entries(spec).flatMap(([name, parents]) => [name, ...parents.filter((p) => p !== null)]))]
  const id = (name: string): string => idN(names.indexOf(name) + 1)
  const link = (name: string | null) => (name === null ? {} : { id: id(name), nom: name, race: "TF" })
  const records: Array<SourceRecord> = names.map((name) => {
    const [sire, dam] = spec[name] ?? [null, null]
    return {
      id: id(name),
      nom: name,
      race: "Trotteur Francais",
      sexe: "Male",
      ...(sire === null ? {} : { pere: link(sire) }),
      ...(dam === null ? {} : { mere: link(dam) })
    }
  })
  const data = build(records)
  return { data, id, row: (name) => rowOf(data, id(name)) }
}

const F = (spec: Family, foal: string, generations?: number) => {
  const built = family(spec)
  return consanguinite(built.data, built.row(foal), generations)
}

const R = (spec: Family, sire: string, dam: string, generations?: number) => {
  const built = family(spec)
  return accouplement(built.data, built.row(sire), built.row(dam), generations)
}

const contributionsOf = (result: { readonly ancetres_communs: ReadonlyArray<{ readonly contribution: number }> }) =>
  result.ancetres_communs.reduce((sum, a) => sum + a.contribution, 0)

describe("consanguinite: pedigrees with known answers", () => {
  const halfSibs: Family = { X: ["S", "D"], S: ["A", "M1"], D: ["A", "M2"] }

  it("half-sibs: F = 0.125, R = 0.25, through their common sire at 2×2", () => {
    const result = F(halfSibs, "X")
    expect(result.coefficient).toBe(0.125)
    expect(result.ancetres_communs).toStrictEqual([{
      id: family(halfSibs).id("A"),
      nom: "A",
      positions_pere: [2],
      positions_mere: [2],
      chemins: 1,
      contribution: 0.125,
      coefficient_ancetre: 0
    }])
    const mating = R(halfSibs, "S", "D")
    expect(mating.coefficient).toBe(0.125)
    expect(mating.coefficient_de_parente).toBe(0.25)
  })

  it("full sibs: F = 0.25, R = 0.5", () => {
    const fullSibs: Family = { X: ["S", "D"], S: ["A", "B"], D: ["A", "B"] }
    const result = F(fullSibs, "X")
    expect(result.coefficient).toBe(0.25)
    expect(result.ancetres_communs.map((a) => [a.nom, a.contribution])).toStrictEqual([["A", 0.125], ["B", 0.125]])
    expect(R(fullSibs, "S", "D").coefficient_de_parente).toBe(0.5)
  })

  it("sire × own daughter: F = 0.25, the sire at 1×2", () => {
    const result = F({ X: ["S", "D"], D: ["S", "M"] }, "X")
    expect(result.coefficient).toBe(0.25)
    expect(result.ancetres_communs).toMatchObject([{ nom: "S", positions_pere: [1], positions_mere: [2], chemins: 1 }])
  })

  it("first cousins: F = 0.0625", () => {
    const cousins: Family = { X: ["S", "D"], S: ["P1", "Q1"], D: ["P2", "Q2"], P1: ["A", "B"], P2: ["A", "B"] }
    expect(F(cousins, "X").coefficient).toBe(0.0625)
  })

  const threeByFour: Family = { X: ["S", "D"], S: ["S1", null], S1: ["A", null], D: ["D1", null], D1: ["D2", null], D2: ["A", null] }

  it("one non-inbred ancestor at 3×4: 1/64, found only once the cut reaches generation 4", () => {
    const result = F(threeByFour, "X", 4)
    expect(result.coefficient).toBe(1 / 64)
    expect(result.ancetres_communs).toMatchObject([{ nom: "A", positions_pere: [3], positions_mere: [4] }])
    expect(F(threeByFour, "X", 3)).toMatchObject({ coefficient: 0, ancetres_communs: [] })
  })

  it("the same with the ancestor's own parents known (4×5 only through it): still 1/64", () => {
    const result = F({ ...threeByFour, A: ["P", "Q"] }, "X")
    expect(result.coefficient).toBe(1 / 64)
    expect(result.ancetres_communs.map((a) => a.nom)).toStrictEqual(["A"])
  })

  it("an ancestor at 3 on the sire side and twice at 4 on the dam side: 1/32", () => {
    const twice: Family = {
      X: ["S", "D"],
      S: ["S1", null],
      S1: ["A", null],
      D: ["D1", "D2"],
      D1: ["E1", null],
      D2: ["E2", null],
      E1: ["A", null],
      E2: ["A", null]
    }
    const result = F(twice, "X")
    expect(result.coefficient).toBe(1 / 32)
    expect(result.ancetres_communs).toMatchObject([{ nom: "A", positions_pere: [3], positions_mere: [4, 4], chemins: 2 }])
  })

  it("half-sibs whose common sire is from full sibs (F_A = 0.25): 0.15625", () => {
    const result = F({ ...halfSibs, A: ["B", "C"], B: ["G", "H"], C: ["G", "H"] }, "X")
    expect(result.coefficient).toBe(0.15625)
    expect(result.ancetres_communs).toMatchObject([{ nom: "A", contribution: 0.15625, coefficient_ancetre: 0.25 }])
  })

  it("the classic six-animal example: F = (0, 0, 0, 0, 0.125, 0.125), R(5, 2) ≈ 0.2357", () => {
    const six: Family = { "3": ["1", "2"], "4": ["1", null], "5": ["4", "3"], "6": ["5", "2"] }
    expect(["1", "2", "3", "4", "5", "6"].map((n) => F(six, n).coefficient)).toStrictEqual([0, 0, 0, 0, 0.125, 0.125])
    const mating = R(six, "5", "2")
    expect(mating.coefficient).toBe(0.125)
    expect(mating.coefficient_de_parente).toBeCloseTo(0.25 / Math.sqrt(1.125), 12)
    expect(mating.coefficient_de_parente).toBeCloseTo(0.2357, 4)
  })

  it("a record among its own ancestors (a source defect) neither loops nor counts", () => {
    const result = F({ X: ["S", "D"], S: ["A", null], A: ["S", null], D: ["A", null] }, "X", 12)
    expect(result.coefficient).toBeGreaterThanOrEqual(0)
    expect(contributionsOf(result)).toBeCloseTo(result.coefficient, 12)
  })
})

describe("consanguinite: the response", () => {
  it("sorts common ancestors by contribution, then name, and encodes to its schema", () => {
    const result = F({ X: ["S", "D"], S: ["B", "A"], D: ["B", "A"], A: ["Z", null], B: ["Z", null] }, "X")
    // Full sibs out of paternal half-sibs: A and B at 2×2, their sire Z at 3×3 through either.
    expect(result.ancetres_communs.map((a) => a.nom)).toStrictEqual(["A", "B", "Z"])
    expect(result.ancetres_communs.map((a) => a.contribution)).toStrictEqual([0.125, 0.125, 0.0625])
    expect(result.ancetres_communs[2]).toMatchObject({ positions_pere: [3, 3], positions_mere: [3, 3], chemins: 2 })
    expect(result.coefficient).toBe(0.3125)
    expect(Schema.decodeUnknownSync(Consanguinite)(result)).toStrictEqual(result)
  })

  it("measures completeness: shares per generation, MacCluer's index, equivalent generations, ancestor counts", () => {
    // Sire side complete over 2 generations; dam known, her sire a dangling name, her dam unknown.
    const records: Array<SourceRecord> = [
      { id: idN(100), nom: "Y", race: "Trotteur Francais", sexe: "Male", pere: { id: idN(102), nom: "S" }, mere: { id: idN(101), nom: "D" } },
      { id: idN(101), nom: "D", race: "Trotteur Francais", sexe: "Femelle", pere: { nom: "GHOST" } },
      { id: idN(102), nom: "S", race: "Trotteur Francais", sexe: "Male", pere: { id: idN(103), nom: "SS" }, mere: { id: idN(104), nom: "SD" } },
      { id: idN(103), nom: "SS", race: "Trotteur Francais", sexe: "Male" },
      { id: idN(104), nom: "SD", race: "Trotteur Francais", sexe: "Femelle" }
    ]
    const data = build(records)
    const result = consanguinite(data, rowOf(data, idN(100)), 2)
    expect(result.completude.par_generation).toStrictEqual([1, 0.75])
    // Sire side: 1 then 2/2; dam side: 1 then 1/2 → means 1 and 0.75 → harmonic mean 6/7.
    expect(result.completude.indice_maccluer).toBeCloseTo(6 / 7, 12)
    expect(result.completude.generations_equivalentes).toBe(1.75)
    expect(result.ancetres).toStrictEqual({ emplacements: 6, connus: 5, distincts: 5 })
    expect(result.generations).toBe(2)
  })

  it("a complete 12-generation pedigree of distinct ancestors: every slot known, F = 0, no table to fill", () => {
    // Heap numbering: record k has sire 2k and dam 2k + 1; 8 191 records, 8 190 ancestors of record 1.
    const records: Array<SourceRecord> = Array.from({ length: 8191 }, (_, i) => {
      const k = i + 1
      const link = (n: number) => ({ id: idN(n), nom: `N${n}` })
      return { id: idN(k), nom: `N${k}`, race: "Pur Sang", sexe: "Male", ...(k < 4096 ? { pere: link(2 * k), mere: link(2 * k + 1) } : {}) }
    })
    const data = build(records)
    const result = consanguinite(data, rowOf(data, idN(1)), 12)
    expect(result.coefficient).toBe(0)
    // A table over all 8 190 ancestors would be 33 M cells (268 MB): only those related to both sides enter it.
    const graph = cutGraph({ sire: data.links.pere.row, dam: data.links.mere.row }, data.links.pere.row[rowOf(data, idN(1))], data.links.mere.row[rowOf(data, idN(1))], 12)
    expect(graph.size).toBe(8190)
    expect(new Coancestry(graph, graph.foalSire, graph.foalDam).nodes).toBe(0)
    expect(result.ancetres).toStrictEqual({ emplacements: 8190, connus: 8190, distincts: 8190 })
    expect(result.completude).toStrictEqual({ par_generation: new Array(12).fill(1), indice_maccluer: 1, generations_equivalentes: 12 })
  })

  it("defaults to 8 generations and brings a direct call's depth into 1..12", () => {
    const built = family({ X: ["S", "D"] })
    expect(consanguinite(built.data, built.row("X")).generations).toBe(CONSANGUINITE_GENERATIONS_DEFAUT)
    expect(consanguinite(built.data, built.row("X"), 40).generations).toBe(12)
    expect(consanguinite(built.data, built.row("X"), 0).ancetres.emplacements).toBe(2)
  })

  it("an accouplement reports each parent's completeness within the cut and encodes to its schema", () => {
    const built = family({ S: ["A", "B"], D: ["A", null] })
    const mating = accouplement(built.data, built.row("S"), built.row("D"), 3)
    expect(mating.pere).toStrictEqual({ id: built.id("S"), nom: "S" })
    expect(mating.completude.pere.par_generation).toStrictEqual([1, 0])
    expect(mating.completude.mere.par_generation).toStrictEqual([0.5, 0])
    expect(mating.coefficient).toBe(0.125)
    expect(Schema.decodeUnknownSync(Accouplement)(mating)).toStrictEqual(mating)
    const shallow = accouplement(built.data, built.row("S"), built.row("D"), 1)
    expect(shallow).toMatchObject({ coefficient: 0, coefficient_de_parente: 0, ancetres_communs: [] })
    expect(shallow.completude.pere).toStrictEqual({ par_generation: [], indice_maccluer: 0, generations_equivalentes: 0 })
  })
})
