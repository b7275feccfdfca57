import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { ancestryOf } from "./ancestry.ts"
import { geneticColumns } from "./columns.ts"
import { rowPedigree } from "./ordered.ts"
import { parentsFirst, pedigreeArbitrary } from "./pedigree.fixtures.ts"

describe("a group's ancestry", () => {
  it("is the members and all they descend from, by generation then row, with local parents", () => {
    fc.assert(
      fc.property(
        pedigreeArbitrary(40).chain((pedigree) =>
          fc.record({
            pedigree: fc.constant(pedigree),
            // Rows in any order, some listed twice.
            members: fc.array(fc.integer({ min: 0, max: pedigree.rowOf.length - 1 }), { maxLength: 2 * pedigree.rowOf.length })
          })
        ),
        ({ members, pedigree }) => {
          const rows = rowPedigree(pedigree.parentage, geneticColumns(pedigree.parentage))
          const reached = new Set<number>()
          const climb = (v: number): void => {
            if (reached.has(v)) return
            reached.add(v)
            for (const p of [rows.sire(v), rows.dam(v)]) if (p >= 0) climb(p)
          }
          members.forEach(climb)
          const expected = parentsFirst(rows).filter((v) => reached.has(v))
          const ancestry = ancestryOf(rows, members)
          expect(Array.from(ancestry.node)).toEqual(expected)
          expect(Array.from(ancestry.sire)).toEqual(expected.map((v) => expected.indexOf(rows.sire(v))))
          expect(Array.from(ancestry.dam)).toEqual(expected.map((v) => expected.indexOf(rows.dam(v))))
          expect(Array.from(ancestry.member)).toEqual(expected.map((v) => (members.includes(v) ? 1 : 0)))
          expect(ancestry.members).toBe(new Set(members).size)
        }
      ),
      { numRuns: 300 }
    )
  })
})
