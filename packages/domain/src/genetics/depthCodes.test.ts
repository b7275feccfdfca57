import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { depthCodes } from "./depthCodes.ts"

/** Decodes every row and checks that two rows share a code exactly when they share a pair. */
const checkCodes = (row: Int32Array, equivalent: Float64Array, complete: Int32Array): void => {
  const depth = depthCodes(row, equivalent, complete)
  const codeOfPair = new Map<string, number>()
  for (let v = 0; v < row.length; v++) {
    const code = depth.codes[row[v]]
    const t = Math.fround(equivalent[v])
    const c = Math.min(255, complete[v])
    expect(depth.equivalent[code]).toBe(t)
    expect(depth.complete[code]).toBe(c)
    const pair = `${t}/${c}`
    expect(codeOfPair.get(pair) ?? code).toBe(code)
    codeOfPair.set(pair, code)
  }
  expect(depth.equivalent.length).toBe(codeOfPair.size)
  expect(depth.complete.length).toBe(codeOfPair.size)
}

describe("depth codes", () => {
  it("give each distinct (single-precision t, complete generations) pair one code", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 300 })), { maxLength: 300 }).chain((pairs) =>
          fc.tuple(fc.constant(pairs), fc.shuffledSubarray(pairs.map((_, k) => k), { minLength: pairs.length, maxLength: pairs.length }))
        ),
        ([pairs, rows]) => {
          // t as sums of halves, as a pedigree gives them: several doubles share a single-precision value.
          const equivalent = Float64Array.from(pairs, ([t]) => t / 8 + (t % 3 === 0 ? 1e-12 : 0))
          checkCodes(Int32Array.from(rows), equivalent, Int32Array.from(pairs, ([, c]) => c))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("keep finding pairs once the table has grown many times", () => {
    const n = 50_000
    const row = Int32Array.from({ length: n }, (_, v) => (v * 7919) % n)
    const equivalent = Float64Array.from({ length: n }, (_, v) => (v % 20_000) / 1024)
    const complete = Int32Array.from({ length: n }, (_, v) => v % 7)
    checkCodes(row, equivalent, complete)
  })
})
