import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { equide } from "../query/record.ts"
import { Equide } from "../schemas/equide.ts"
import { spelledDatasetArbitrary } from "../testing/arbitraries.ts"
import { writeEquideJson } from "./equideBody.ts"
import { jsonTextEncoder } from "./json.ts"
import { emptyWriter } from "./jsonBytes.ts"

const text = new TextDecoder("utf-8", { ignoreBOM: true })

/** What the record route writes: the schema's encoding of the record, as JSON. */
const bySchema = jsonTextEncoder(Equide)

describe("writeEquideJson", () => {
  it("writes every record as the record route's schema encodes it: any Unicode, links dangling or resolved, filiations stored or spelled, performances", () => {
    let spelled = 0
    let unknownSire = 0
    fc.assert(
      fc.property(spelledDatasetArbitrary({ minLength: 1, withAnyText: true }), ({ data }) => {
        const w = emptyWriter()
        const expected: Array<string> = []
        for (let row = 0; row < data.size; row++) {
          writeEquideJson(w, data, row)
          w.ascii("\n")
          const record = equide(data, row)
          expected.push(`${bySchema(record)}\n`)
          if (data.filiationSpelled[row] === 1) spelled++
          if (data.filiationSpelled[row] === 1 && record.filiation_texte?.startsWith("Par INCONNU") === true) unknownSire++
        }
        expect(text.decode(w.take())).toBe(expected.join(""))
      }),
      { numRuns: 300 }
    )
    // The spelled filiations were written from the links, the unknown sire's too.
    expect(spelled).toBeGreaterThan(100)
    expect(unknownSire).toBeGreaterThan(10)
  })
})
