import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { LINK_NAME_OF_ROW, type LinkColumn } from "./DatasetData.ts"
import { linkName, linkNameExceptions } from "./linkNames.ts"

/** One link of a row: resolved or not, and the name it carries (mostly the rule's, as in the registry). */
const linkArbitrary = fc.record({
  parent: fc.oneof(fc.constant(-1), fc.nat(50)),
  name: fc.oneof(
    { arbitrary: fc.constant("rule" as const), weight: 6 },
    { arbitrary: fc.constantFrom(0, LINK_NAME_OF_ROW), weight: 2 },
    { arbitrary: fc.integer({ min: 1, max: 20 }), weight: 2 }
  )
})

describe("linkName", () => {
  it("reads back every row's name code of the full column, from the exceptions to the rule alone", () => {
    fc.assert(
      fc.property(fc.array(linkArbitrary, { maxLength: 60 }), (links) => {
        const parents = Int32Array.from(links, ({ parent }) => parent)
        const names = Uint32Array.from(links, ({ name, parent }) => (name !== "rule" ? name : parent >= 0 ? LINK_NAME_OF_ROW : 0))
        const column: LinkColumn = { row: parents, nameExceptions: linkNameExceptions(parents, names), race: new Uint8Array(links.length) }
        links.forEach((_, row) => expect(linkName(column, row)).toBe(names[row]))
        // Only what the rule does not give is stored, rows ascending.
        const kept = links.flatMap(({ parent }, row) => (names[row] === (parent >= 0 ? LINK_NAME_OF_ROW : 0) ? [] : [row]))
        expect([...column.nameExceptions.rows]).toEqual(kept)
        expect([...column.nameExceptions.names]).toEqual(kept.map((row) => names[row]))
      }),
      { numRuns: 500 }
    )
  })
})
