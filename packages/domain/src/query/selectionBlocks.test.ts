import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { datasetArbitrary, filterInputArbitrary, naiveRows, naiveSelect } from "../testing/arbitraries.ts"
import { resolveFilters } from "./filters.ts"
import { selectionBlocks } from "./selectionBlocks.ts"

describe("selectionBlocks", () => {
  it("gives, block after block, exactly the rows a naive evaluation keeps, in file order, whatever the block's work and whether the rarest filter is listed or scanned", () => {
    let blocks = 0
    let emptyBlocks = 0
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 80 }).chain((g) => fc.tuple(fc.constant(g), filterInputArbitrary(g.records))),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(0, 1 << 20),
        ([{ data, records }, input], blockUnits, listUnits) => {
          const filters = resolveFilters(data, input)
          if (Result.isFailure(filters)) throw new Error(filters.failure.detail)
          const source = selectionBlocks(data, filters.success, blockUnits, listUnits)
          const rows: Array<number> = []
          for (let block = source.next(); block !== undefined; block = source.next()) {
            blocks++
            if (block.length === 0) emptyBlocks++
            rows.push(...block)
          }
          expect(source.next()).toBeUndefined()
          expect(rows).toEqual(naiveSelect(naiveRows(records), input))
        }
      ),
      { numRuns: 400 }
    )
    // Blocks of several kinds were read: some held no row (a stretch of the file none passed).
    expect(blocks).toBeGreaterThan(100)
    expect(emptyBlocks).toBeGreaterThan(0)
  })
})
