import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { dictionaryOf } from "../dataset/build/indexes.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import { encodeId, ID_BYTES } from "../dataset/ids.ts"
import { idN } from "../testing/ids.ts"
import { descendanceBody } from "./descendanceBody.ts"
import { Writer } from "./jsonBytes.ts"
import { pedigreeBody } from "./pedigreeBody.ts"
import { resumePageBody } from "./resumePageBody.ts"

const text = new TextDecoder()

const written = (write: (w: Writer) => void): string => {
  const w = new Writer()
  write(w)
  return text.decode(w.take())
}

describe("Writer", () => {
  it("writes an identifier as encodeId spells it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: ID_BYTES * 3, maxLength: ID_BYTES * 3 }), fc.integer({ min: 0, max: 2 }), (ids, row) => {
        expect(written((w) => w.id({ ids } as unknown as DatasetData, row))).toBe(encodeId(ids, row * ID_BYTES))
      })
    )
  })

  it("writes a finite number as JSON.stringify does", () => {
    const numbers = fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.constantFrom(0, 9, 10, 99, 100, 2024, Number.MAX_SAFE_INTEGER), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
    fc.assert(fc.property(numbers, (n) => {
      expect(written((w) => w.int(n))).toBe(JSON.stringify(n))
    }))
  })

  it("writes a dictionary value as JSON.stringify writes it, a leading byte order mark kept", () => {
    const value = fc.oneof(fc.string({ unit: "grapheme" }), fc.constantFrom("\uFEFFSelle Français", "a\"b\\c\n\u0001\u001f", "\u2028\u{1F40E}", ""))
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 20 }), (values) => {
      const dictionary = dictionaryOf(values)
      values.forEach((v, code) => {
        const w = new Writer()
        w.dictionaryString(dictionary, code)
        expect(w.take()).toEqual(new TextEncoder().encode(JSON.stringify(v)))
      })
    }))
  })

  it("grows past its first buffer and keeps what it held", () => {
    const w = new Writer()
    const years = Array.from({ length: 5000 }, (_, i) => 1900 + (i % 125))
    for (const year of years) {
      w.int(year)
      w.ascii(",")
    }
    expect(text.decode(w.take())).toBe(years.map((year) => `${year},`).join(""))
  })
})

describe("the thread's writer", () => {
  const SIRE = idN(1)
  const DAM = idN(2)
  const FOAL = idN(3)
  const data = buildDataset([
    { id: SIRE, nom: "SIRE", race: "Selle Français", sexe: "Male", annee_naissance: 1990 },
    { id: DAM, nom: "DAM", race: "Pur-sang", sexe: "Femelle", annee_naissance: 1992 },
    { id: FOAL, nom: "FOAL", race: "Selle Français", sexe: "Male", annee_naissance: 2001, pere: { id: SIRE }, mere: { id: DAM } }
  ])
  const row = (id: string): number => {
    for (let r = 0; r < data.size; r++) if (encodeId(data.ids, r * ID_BYTES) === id) return r
    throw new Error(`no row for ${id}`)
  }
  /** The same data, but reading the foal's birth year throws: a bug met midway through a body. */
  const faulty: DatasetData = {
    ...data,
    year: new Proxy(data.year, {
      get: (target, key) => {
        if (key === String(row(FOAL))) throw new Error("writer bug")
        const value = Reflect.get(target, key, target)
        return typeof value === "function" ? value.bind(target) : value
      }
    })
  }
  const pagination = { total: 1, limite: 20, offset: 0, suivant: null, precedent: null }

  const bodies: ReadonlyArray<readonly [string, (of: DatasetData) => Uint8Array, string]> = [
    [
      "pedigree",
      (of) => pedigreeBody(of, row(FOAL), 1),
      `{"generations":1,"noeuds":3,"noeuds_theoriques":3,"arbre":{"id":"${FOAL}","nom":"FOAL","race":"Selle Français","sexe":"Male","annee_naissance":2001,"generation":0,` +
      `"pere":{"id":"${SIRE}","nom":"SIRE","race":"Selle Français","sexe":"Male","annee_naissance":1990,"generation":1},` +
      `"mere":{"id":"${DAM}","nom":"DAM","race":"Pur-sang","sexe":"Femelle","annee_naissance":1992,"generation":1}}}`
    ],
    [
      "progeny",
      // The spec's default `limite`: 50.
      (of) => descendanceBody(of, row(SIRE)),
      `{"parent":{"id":"${SIRE}","nom":"SIRE","race":"Selle Français","fiche_disponible":true},"total":1,"limite":50,"offset":0,"donnees":[` +
      `{"id":"${FOAL}","nom":"FOAL","race":"Selle Français","sexe":"Male","fiche_disponible":true,"annee_naissance":2001}]}`
    ],
    [
      "page of summaries",
      (of) => resumePageBody(of, [row(FOAL)], pagination),
      `{"donnees":[{"id":"${FOAL}","nom":"FOAL","race":"Selle Français","sexe":"Male","annee_naissance":2001}],` +
      `"pagination":{"total":1,"limite":20,"offset":0,"suivant":null,"precedent":null}}`
    ]
  ]

  it("starts every body empty, whatever a body that threw midway left in it", () => {
    for (const [name, write, expected] of bodies) {
      expect(() => write(faulty), name).toThrow("writer bug")
      expect(text.decode(write(data)), name).toBe(expected)
    }
  })
})
