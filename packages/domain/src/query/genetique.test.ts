import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { buildDataset, inMemoryProvenance } from "../dataset/Dataset.ts"
import { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import { RACES, recordsArbitrary } from "../testing/arbitraries.ts"
import { breedReference, dropBreedColumns, genetique, statsGenetique } from "./genetique.ts"

/** Loaded in 2003: the arbitraries' years are 2000–2004 (and an aberrant one), links may form cycles. */
const PROVENANCE = { ...inMemoryProvenance(0), ingestedAt: "2003-06-01T00:00:00.000Z" }

const decodes = <S extends Schema.Top>(schema: S, value: unknown): void => {
  expect(() => Schema.decodeUnknownSync(schema as never)(value, { onExcessProperty: "error" })).not.toThrow()
}

describe("genetique over any records", () => {
  it("answers every record and every breed within the schemas' bounds", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), fc.constantFrom(...RACES), (records, race) => {
        const data = buildDataset(records, PROVENANCE)
        for (let row = 0; row < data.size; row++) {
          const answer = genetique(data, row)
          decodes(Genetique, answer)
          // What a record page shows without the mean coancestry's pass: the same reference.
          expect(breedReference(data, row)).toEqual(answer.reference)
        }
        for (const query of [{}, { race: [race] }, { annee_min: 2001, annee_max: 2002 }]) {
          const answer = statsGenetique(data, query)
          // A breed the records do not carry is the race filter's 400.
          if (Result.isFailure(answer)) expect(answer.failure.parametre).toBe("race")
          else {
            decodes(StatsGenetique, answer.success)
            const years = answer.success.annees.map((a) => a.annee)
            expect(years).toEqual([...years].sort((a, b) => a - b))
          }
        }
      }),
      { numRuns: 100 }
    )
  })

  it("gives every row the same parente_moyenne whatever breeds the thread was asked before (dropped columns reused, or all dropped after a warm-up)", () => {
    fc.assert(
      fc.property(
        recordsArbitrary({ minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        (records, visits) => {
          const data = buildDataset(records, PROVENANCE)
          // A fresh Dataset per row: its thread state has seen no other breed.
          const alone = Array.from({ length: data.size }, (_, row) => genetique(buildDataset(records, PROVENANCE), row).parente_moyenne)
          for (const [k, visit] of visits.entries()) {
            const row = visit % data.size
            expect(genetique(data, row).parente_moyenne).toBe(alone[row])
            // The warm-up drops the kept columns: the next request computes its breed's again.
            if (k % 3 === 2) dropBreedColumns(data)
          }
        }
      ),
      { numRuns: 50 }
    )
  })
})
