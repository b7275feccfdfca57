/**
 * `listWithBreakdowns` (the explorer's list with its facets, one selection for all) against its
 * naive model: `listAnswer` and one `repartitionAnswer` per breakdown, each selecting on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { filterInputArbitrary, syntheticRecords } from "../testing/arbitraries.ts"
import { TRIS } from "../vocabulary.ts"
import { type ListQuery, listAnswer, listWithBreakdowns, type RepartitionQuery, repartitionAnswer } from "./answers.ts"

const RECORDS = syntheticRecords(2000, 24)
const data = buildDataset(RECORDS)
const BREAKDOWNS = [{ dimension: "race", limite: 10 }, { dimension: "sexe", limite: 10 }, { dimension: "robe", limite: 3 }]

describe("listWithBreakdowns", () => {
  it("gives what the list and each breakdown give on their own, refusals included", () => {
    fc.assert(
      fc.property(
        filterInputArbitrary(RECORDS),
        fc.constantFrom(...TRIS),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 300 }),
        (filters, tri, limite, offset) => {
          const query = { ...filters, tri, limite, offset } as ListQuery
          const url = `/v1/equides?tri=${tri}&limite=${limite}&offset=${offset}`
          const together = listWithBreakdowns(data, query, url, BREAKDOWNS)
          const page = listAnswer(data, query, url)
          const apart = BREAKDOWNS.map((b) => repartitionAnswer(data, { ...filters, ...b } as RepartitionQuery))
          if (Result.isFailure(page)) {
            expect(Result.isFailure(together) ? together.failure : together).toStrictEqual(page.failure)
            return
          }
          const breakdowns = apart.map((r) => (Result.isSuccess(r) ? r.success : r.failure))
          expect(Result.isSuccess(together) ? together.success : together).toStrictEqual({ page: page.success, breakdowns })
        }
      ),
      { seed: 24, numRuns: 200 }
    )
  })
})
