import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { datasetArbitrary } from "../testing/arbitraries.ts"
import { Descendance } from "../schemas/pedigree.ts"
import { descendance } from "../query/descendance.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import { idN } from "../testing/ids.ts"
import { descendanceBody } from "./descendanceBody.ts"

const text = new TextDecoder()

/** What HttpApi writes for a progeny page: the schema's encoding of `descendance(…)`, as JSON. */
const bySchema = Schema.encodeSync(Descendance)

describe("descendanceBody", () => {
  it("writes the bytes the schema writes for every progeny page, names and breeds of any Unicode", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ minLength: 1, withAnyText: true }),
        fc.integer({ min: -3, max: 120 }),
        fc.integer({ min: -2, max: 8 }),
        ({ data }, limite, offset) => {
          for (let row = 0; row < data.size; row++) {
            const body = descendanceBody(data, row, limite, offset)
            expect(text.decode(body)).toBe(JSON.stringify(bySchema(descendance(data, row, limite, offset))))
            // Each body owns its buffer (the response cache keeps it).
            expect(body.byteOffset).toBe(0)
            expect(body.buffer.byteLength).toBe(body.byteLength)
          }
        }
      ),
      { numRuns: 200 }
    )
  })

  it("escapes a name as JSON.stringify does, control characters, quotes and a byte order mark included", () => {
    const names = ["A\"B\\C", "\b\t\n\f\r\u0000\u001f\u007f", "\uFEFFÉTOILE 🐎", "", "x\u2028y"]
    const records = [
      { id: idN(0), nom: "PÈRE \"P\"", sexe: "Male", race: "1'10\"2 (ASC6H)" },
      ...names.map((nom, i) => ({
        id: idN(i + 1),
        nom,
        sexe: "Femelle",
        race: "Selle Francais",
        pere: { id: idN(0), nom: "PÈRE \"P\"" }
      }))
    ]
    const data = buildDataset(records)
    expect(data.size).toBe(6)
    const sire = 0
    const body = JSON.parse(text.decode(descendanceBody(data, sire, 50, 0)))
    expect(body.parent.nom).toBe("PÈRE \"P\"")
    expect(body.donnees.map((produit: { nom: string }) => produit.nom).sort()).toEqual(
      descendance(data, sire).donnees.map((produit) => produit.nom).sort()
    )
    expect(text.decode(descendanceBody(data, sire, 50, 0))).toBe(JSON.stringify(descendance(data, sire)))
  })
})
