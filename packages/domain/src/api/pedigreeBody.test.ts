import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { pedigree } from "../query/pedigree.ts"
import { Pedigree } from "../schemas/pedigree.ts"
import { datasetArbitrary } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { pedigreeBody } from "./pedigreeBody.ts"

const text = new TextDecoder()

/** What HttpApi writes for a pedigree: the schema's encoding of `pedigree(…)`, as JSON. */
const bySchema = Schema.encodeSync(Pedigree)

describe("pedigreeBody", () => {
  it("writes the bytes the schema writes for every pedigree at every depth, names and breeds of any Unicode", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ minLength: 1, withAnyText: true }),
        fc.oneof(fc.integer({ min: -2, max: 10 }), fc.constant(Number.NaN), fc.constant(2.7)),
        ({ data }, generations) => {
          for (let row = 0; row < data.size; row++) {
            const body = pedigreeBody(data, row, generations)
            expect(text.decode(body)).toBe(JSON.stringify(bySchema(pedigree(data, row, generations))))
            // Each body owns its buffer (the response cache keeps it).
            expect(body.byteOffset).toBe(0)
            expect(body.buffer.byteLength).toBe(body.byteLength)
          }
        }
      ),
      { numRuns: 200 }
    )
  })

  it("unrolls a record among its own ancestors down to the depth, and escapes names as JSON.stringify does", () => {
    const records = [
      { id: idN(0), nom: "A\"B\\C \u0001", sexe: "Male", race: "Selle Francais", pere: { id: idN(1) }, mere: { id: idN(2) } },
      { id: idN(1), nom: "\uFEFFPÈRE 🐎", sexe: "Male", race: "", pere: { id: idN(0) } },
      { id: idN(2), nom: "", sexe: "Femelle", race: "Pur-sang" }
    ]
    const data = buildDataset(records)
    for (const generations of [0, 1, 4, 8]) {
      expect(text.decode(pedigreeBody(data, 0, generations))).toBe(JSON.stringify(pedigree(data, 0, generations)))
    }
    expect(JSON.parse(text.decode(pedigreeBody(data, 0, 8))).noeuds).toBe(pedigree(data, 0, 8).noeuds)
  })
})
