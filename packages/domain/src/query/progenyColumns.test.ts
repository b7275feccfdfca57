import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { compareText } from "../testing/arbitraries.ts"
import { byDescendingThenName } from "./progenyColumns.ts"
import { idOf } from "./record.ts"

describe("byDescendingThenName", () => {
  it("orders rows by value descending, then folded name, then the text of their id", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 16, maxLength: 16 }), { minLength: 1, maxLength: 40, selector: (b) => Buffer.from(b).toString("hex") }),
        fc.array(fc.tuple(fc.constantFrom("Éclair", "ECLAIR", "eclair", "Zèbre", "A"), fc.constantFrom(-3.5, 0, 2, 115)), { minLength: 40, maxLength: 40 }),
        fc.nat(),
        (ids, cells, shift) => {
          const data = buildDataset(ids.map((bytes, i) => ({ id: Buffer.from(bytes).toString("base64url"), nom: cells[i][0] })))
          // A subset of the rows, in no particular order.
          const rows = Uint32Array.from({ length: data.size }, (_, i) => (i + shift) % data.size).filter((_, i) => i % 3 !== 1)
          const values = Float64Array.from(rows, (row) => cells[row][1])
          const order = byDescendingThenName(data, rows, values)
          const expected = [...rows.keys()].sort((a, b) =>
            values[b] - values[a] || data.nameKey[rows[a]] - data.nameKey[rows[b]] || compareText(idOf(data, rows[a]), idOf(data, rows[b]))
          )
          expect([...order]).toEqual(expected)
        }
      ),
      { numRuns: 200 }
    )
  })
})
