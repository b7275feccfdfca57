import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { buildDataset, inMemoryProvenance } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { everyBreedHeld } from "../genetics/breedShares.fixtures.ts"
import { Genetique, StatsGenetique } from "../schemas/genetique.ts"
import { RACES, recordsArbitrary } from "../testing/arbitraries.ts"
import { foldValue } from "../text/fold.ts"
import { breedReference, genetique, prepareBreeds, statsGenetique, unheldBreedRow } from "./genetique.ts"

/** Loaded in 2003: the arbitraries' years are 2000–2004 (and an aberrant one), links may form cycles. */
const PROVENANCE = { ...inMemoryProvenance(0), ingestedAt: "2003-06-01T00:00:00.000Z" }

const decodes = <S extends Schema.Top>(schema: S, value: unknown): void => {
  expect(() => Schema.decodeUnknownSync(schema as never)(value, { onExcessProperty: "error" })).not.toThrow()
}

describe("unheldBreedRow", () => {
  it("gives a record of the most frequent race spelling when no breed is held, and only a breed without reference when every other is", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), (records) => {
        const data = buildDataset(records, PROVENANCE)
        // The naive model: how many records carry each race code (0: none).
        const counts = new Map<number, number>()
        for (let row = 0; row < data.size; row++) {
          const code = data.race.codes[row]
          if (code !== 0) counts.set(code, (counts.get(code) ?? 0) + 1)
        }
        const row = unheldBreedRow(data)
        if (counts.size === 0) expect(row).toBeUndefined()
        else {
          expect(row).toBeDefined()
          expect(counts.get(data.race.codes[row ?? 0])).toBe(Math.max(...counts.values()))
        }
        // Every breed with a reference population held: what is left is a breed without one.
        const holding: DatasetData = { ...data, breedShares: everyBreedHeld(data) }
        const left = unheldBreedRow(holding)
        if (left !== undefined) expect(breedReference(holding, left)).toBeNull()
      }),
      { numRuns: 100 }
    )
  })
})

describe("prepareBreeds", () => {
  it("makes every breed one of whose spellings has enough records, but the held ones, and changes no answer", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), (records, minRecords, holdAll) => {
        const built = buildDataset(records, PROVENANCE)
        const data: DatasetData = holdAll ? { ...built, breedShares: everyBreedHeld(built) } : built
        // The naive model: the records of each spelling, the spellings by folded race; a breed is made when one
        // of its spellings has `minRecords` records and the Dataset does not hold it.
        const bySpelling = new Map<string, number>()
        for (const { race } of records) if (race !== null && race !== undefined) bySpelling.set(race, (bySpelling.get(race) ?? 0) + 1)
        const breeds = new Set<string>()
        for (const [race, count] of bySpelling) if (count >= minRecords) breeds.add(foldValue(race))
        // Every breed held: only one without a reference population is left, a breed none of whose records is born
        // by the year of loading (2003).
        const expected = holdAll
          ? [...breeds].filter((breed) =>
            !records.some(({ race, annee_naissance }) =>
              race !== null && race !== undefined && foldValue(race) === breed && annee_naissance !== undefined && annee_naissance !== null &&
              annee_naissance <= 2003
            )
          ).length
          : breeds.size
        const fresh = buildDataset(records, PROVENANCE)
        expect(prepareBreeds(data, minRecords)).toBe(expected)
        // Made ahead or on first use, the same reference for every record.
        const unprepared: DatasetData = holdAll ? { ...fresh, breedShares: data.breedShares } : fresh
        for (let row = 0; row < data.size; row++) expect(breedReference(data, row)).toEqual(breedReference(unprepared, row))
      }),
      { numRuns: 100 }
    )
  })
})

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

  it("gives the whole extract the reference population, founders, ancestors and years a breed of every record gets (held at load, computed on demand)", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), (records) => {
        const data = buildDataset(records.map((record) => ({ ...record, race: "Selle Francais" })), PROVENANCE)
        const whole = statsGenetique(data, {})
        const breed = statsGenetique(data, { race: ["Selle Francais"] })
        expect(Result.isSuccess(whole) && Result.isSuccess(breed)).toBe(true)
        if (Result.isSuccess(whole) && Result.isSuccess(breed)) {
          expect(whole.success.reference).toEqual(breed.success.reference)
          expect(whole.success.annees).toEqual(breed.success.annees)
        }
      }),
      { numRuns: 100 }
    )
  })

  it("gives the same parente_moyenne whether the Dataset holds the breed's shares or the thread computes them", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), (records) => {
        const data = buildDataset(records, PROVENANCE)
        const holding: DatasetData = { ...data, breedShares: everyBreedHeld(data) }
        for (let row = 0; row < data.size; row++) {
          expect(genetique(holding, row).parente_moyenne).toBe(genetique(data, row).parente_moyenne)
        }
      }),
      { numRuns: 100 }
    )
  })

  it("gives every row the same parente_moyenne whatever breeds the thread was asked before", () => {
    fc.assert(
      fc.property(
        recordsArbitrary({ minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        (records, visits) => {
          const data = buildDataset(records, PROVENANCE)
          // A fresh Dataset per row: its thread state has seen no other breed.
          const alone = Array.from({ length: data.size }, (_, row) => genetique(buildDataset(records, PROVENANCE), row).parente_moyenne)
          for (const visit of visits) {
            const row = visit % data.size
            expect(genetique(data, row).parente_moyenne).toBe(alone[row])
          }
        }
      ),
      { numRuns: 50 }
    )
  })
})
