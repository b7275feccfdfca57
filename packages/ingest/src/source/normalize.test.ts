import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { INVALID_UTF8, markInvalidUtf8, normalizeRecord } from "./normalize.ts"

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

  it.effect("drops values of the wrong type, counting them, and years that are not integers", () =>
    Effect.sync(() => {
      expect(normalizeRecord({ id: 12, nom: ["A"], robe: { a: 1 }, annee_naissance: "2012" })).toStrictEqual({
        rejected: { invalidText: 0, wrongType: 4 }
      })
      expect(normalizeRecord({ id: "x", sexe: ["Male"], nom: 123 })).toStrictEqual({ id: "x", rejected: { invalidText: 0, wrongType: 2 } })
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
      expect(normalizeRecord({ pere: {}, mere: { id: null, nom: "" } })).toStrictEqual({})
      // A wrong type is counted (`race: 3`, a text for a link, a list for a link).
      expect(normalizeRecord({ mere: { race: 3 }, pere_de_mere: "TF" })).toStrictEqual({ rejected: { invalidText: 0, wrongType: 2 } })
      expect(normalizeRecord({ pere: [{ id: "y" }] })).toStrictEqual({ rejected: { invalidText: 0, wrongType: 1 } })
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
        ],
        // The index `3`; a year that is a number but not an integer is only absent.
        rejected: { invalidText: 0, wrongType: 1 }
      })
      expect(normalizeRecord({ performances: [] })).toStrictEqual({})
      expect(normalizeRecord({ performances: [{}, null] })).toStrictEqual({})
      expect(normalizeRecord({ performances: { discipline: "DRESSAGE" } })).toStrictEqual({ rejected: { invalidText: 0, wrongType: 1 } })
    }))

  it.effect("drops text that is not well-formed, counting it: a lone surrogate, bytes marked as not UTF-8", () =>
    Effect.sync(() => {
      expect(normalizeRecord({ id: "x", nom: "A\uD800B", robe: "Bai" })).toStrictEqual({ id: "x", robe: "Bai", rejected: { invalidText: 1, wrongType: 0 } })
      expect(normalizeRecord({ id: "x", nom: `A${INVALID_UTF8}`, pere: { nom: INVALID_UTF8 } }, true)).toStrictEqual({
        id: "x",
        rejected: { invalidText: 2, wrongType: 0 }
      })
      // Only in a line that held such bytes: elsewhere U+FFFF is the source's own text.
      expect(normalizeRecord({ id: "x", nom: `A${INVALID_UTF8}` })).toStrictEqual({ id: "x", nom: `A${INVALID_UTF8}` })
      // U+FFFD written by the source is text like any other.
      expect(normalizeRecord({ id: "x", nom: "A\uFFFD" }, true)).toStrictEqual({ id: "x", nom: "A\uFFFD" })
    }))

  it("marks each run of bytes that are not UTF-8, and only those", () => {
    const bytes = (...values: Array<number>) => Uint8Array.from(values)
    const marked = (input: Uint8Array) => markInvalidUtf8(input, 0, input.length).toString("utf8")
    const A = 0x41
    expect(marked(bytes(A, 0xff, A))).toBe(`A${INVALID_UTF8}A`)
    // Overlong `.`, a surrogate, past U+10FFFF, a lone lead byte, a stray continuation byte: one mark per run.
    expect(marked(bytes(A, 0xc0, 0xae, A))).toBe(`A${INVALID_UTF8}A`)
    expect(marked(bytes(0xed, 0xa0, 0x80))).toBe(INVALID_UTF8)
    expect(marked(bytes(0xf4, 0x90, 0x80, 0x80, A))).toBe(`${INVALID_UTF8}A`)
    expect(marked(bytes(A, 0xe9))).toBe(`A${INVALID_UTF8}`)
    expect(marked(bytes(0x80, A, 0xc3, 0xa9))).toBe(`${INVALID_UTF8}Aé`)
    // Well-formed sequences of every length are kept.
    const valid = Buffer.from("aé€🐴\uFFFD", "utf8")
    expect(marked(valid)).toBe("aé€🐴\uFFFD")
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      const encoded = Buffer.from(text.toWellFormed(), "utf8")
      expect(markInvalidUtf8(encoded, 0, encoded.length).equals(encoded)).toBe(true)
    }))
  })

  it.effect("says undefined for a JSON value that is not an object", () =>
    Effect.sync(() => {
      for (const value of [null, 42, "x", true, [], [{ id: "x" }]]) expect(normalizeRecord(value)).toBeUndefined()
    }))
})
