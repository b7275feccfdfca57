import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { compareText } from "../testing/arbitraries.ts"
import { nameOrder } from "./progenyColumns.ts"
import { idOf } from "./record.ts"

describe("nameOrder", () => {
  it("orders rows by folded name, then by the text of their id", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 16, maxLength: 16 }), { minLength: 1, maxLength: 40, selector: (b) => Buffer.from(b).toString("hex") }),
        fc.array(fc.constantFrom("Éclair", "ECLAIR", "eclair", "Zèbre", "A"), { minLength: 40, maxLength: 40 }),
        (ids, names) => {
          const data = buildDataset(ids.map((bytes, i) => ({ id: Buffer.from(bytes).toString("base64url"), nom: names[i] })))
          const rows = Uint32Array.from({ length: data.size }, (_, i) => data.size - 1 - i)
          const rank = nameOrder(data, rows)
          const folded = (row: number) => (data.nameKey[row])
          const expected = [...rows.keys()].sort((a, b) =>
            folded(rows[a]) - folded(rows[b]) || compareText(idOf(data, rows[a]), idOf(data, rows[b]))
          )
          expect([...rank]).toEqual(expected.reduce((out, i, position) => ((out[i] = position), out), new Array<number>(rows.length)))
        }
      ),
      { numRuns: 200 }
    )
  })
})
