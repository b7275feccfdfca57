import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalizeRecord } from "./normalize.ts"

describe("normalizeRecord", () => {
  it.effect("keeps the fields the source filled in", () =>
    Effect.sync(() => {
      const filled = {
        id: "Z4ogLhlkS2CeUdq0bZ0YFw",
        slug: "qabalah-mercury",
        nom: "QABALAH MERCURY",
        race: "Trotteur Francais",
        sexe: "Male",
        robe: "Bai",
        annee_naissance: 2012,
        statut_reproducteur: "Etalon Actif",
        record: "1'11\"9 (AEL3V)",
        filiation_texte: "Par BOOSTER WINNER TF et JEWELLE DARK TF",
        pere: { id: "gecpqPj6Rc2vy_Hz_Y1DmQ", nom: "BOOSTER WINNER", race: "TF" },
        mere: { nom: "JEWELLE DARK", race: "TF", pays: "IRL" },
        pere_de_mere: { nom: "CHARLY DU NOYER", alias: "CHARLY" },
        performances: [{
          discipline: "TROT COURSE",
          texte: "BTR +59 (0.35)",
          indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35, annee: 2024, appreciation: "indice-satisfaisant" }]
        }]
      }
      expect(normalizeRecord(filled)).toEqual(filled)
    }))

  it.effect("treats null, a missing key and an empty string alike: the property is omitted", () =>
    Effect.sync(() => {
      const record = normalizeRecord({ id: "x", slug: null, nom: "", race: undefined, robe: "", sexe: null })
      expect(record).toStrictEqual({ id: "x" })
      expect(Object.keys(record!)).toEqual(["id"])
    }))

  it.effect("drops values of the wrong type and years that are not integers", () =>
    Effect.sync(() => {
      expect(normalizeRecord({ id: 12, nom: ["A"], robe: { a: 1 }, annee_naissance: "2012" })).toStrictEqual({})
      expect(normalizeRecord({ annee_naissance: 2010.5 })).toStrictEqual({})
      expect(normalizeRecord({ annee_naissance: 2 ** 53 })).toStrictEqual({})
      expect(normalizeRecord({ annee_naissance: 193 })).toStrictEqual({ annee_naissance: 193 })
      expect(Object.is(normalizeRecord({ annee_naissance: -0 })!.annee_naissance, 0)).toBe(true)
    }))

  it.effect("drops naisseur and unknown keys", () =>
    Effect.sync(() => {
      const record = normalizeRecord({ id: "x", naisseur: "M. Personne", inconnu: 1, pere: { id: "y", naisseur: "Z" } })
      expect(record).toStrictEqual({ id: "x", pere: { id: "y" } })
    }))

  it.effect("makes a link whose every field is absent absent", () =>
    Effect.sync(() => {
      expect(normalizeRecord({ pere: {}, mere: { id: null, nom: "", race: 3 }, pere_de_mere: "TF" })).toStrictEqual({})
      expect(normalizeRecord({ pere: [{ id: "y" }] })).toStrictEqual({})
    }))

  it.effect("keeps a numeric valeur as its text and drops empty performances, indices and lists", () =>
    Effect.sync(() => {
      expect(normalizeRecord({
        performances: [
          { discipline: "TROT COURSE", indices: [{ code: "BTR", valeur: 59, coefficient: null, annee: 2024.5 }, {}, 3] },
          {},
          null,
          { texte: "ISO 120", indices: [] }
        ]
      })).toStrictEqual({
        performances: [
          { discipline: "TROT COURSE", indices: [{ code: "BTR", valeur: "59" }] },
          { texte: "ISO 120" }
        ]
      })
      expect(normalizeRecord({ performances: [] })).toStrictEqual({})
      expect(normalizeRecord({ performances: [{}, null] })).toStrictEqual({})
      expect(normalizeRecord({ performances: { discipline: "DRESSAGE" } })).toStrictEqual({})
    }))

  it.effect("says undefined for a JSON value that is not an object", () =>
    Effect.sync(() => {
      for (const value of [null, 42, "x", true, [], [{ id: "x" }]]) expect(normalizeRecord(value)).toBeUndefined()
    }))
})
