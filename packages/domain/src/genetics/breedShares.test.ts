import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { dictionarySize } from "../dataset/columns.ts"
import { buildDataset, inMemoryProvenance } from "../dataset/Dataset.ts"
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { codesFoldingAs } from "../dataset/foldedCodes.ts"
import { recordsArbitrary } from "../testing/arbitraries.ts"
import { everyBreedHeld } from "./breedShares.fixtures.ts"
import { heldBreed, meanOf, rowsOfCodes } from "./breedShares.ts"
import { inbreedingOf } from "./columns.ts"
import { groupShares } from "./groupCoancestry.ts"
import { rowPedigree } from "./ordered.ts"
import { referencePopulation } from "./reference.ts"

/** Loaded in 2003: the arbitraries' years are 2000–2004. */
const PROVENANCE = { ...inMemoryProvenance(0), ingestedAt: "2003-06-01T00:00:00.000Z" }

const pedigreeOf = (data: DatasetData) => rowPedigree({ sire: data.links.pere.row, dam: data.links.mere.row }, data.genetics)

describe("the breeds' shares held by the Dataset", () => {
  it("are each breed's reference population's shares, found by the breed's spellings", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), (records) => {
        const data = buildDataset(records, PROVENANCE)
        const held = everyBreedHeld(data)
        for (let code = 1; code < dictionarySize(data.race.values); code++) {
          const codes = codesFoldingAs(data.race, code)
          const reference = referencePopulation(data.year, NO_YEAR, rowsOfCodes(data.race, codes), 2003)
          const breed = heldBreed(held, codes)
          if (reference === null) {
            expect(breed).toBeUndefined()
            continue
          }
          const F = (row: number) => inbreedingOf(data.genetics, row)
          const expected = groupShares(pedigreeOf(data), F, reference.rows)!
          expect(breed).toEqual({ reference, meanInbreeding: meanOf(F, reference.rows), shares: expected })
          // Another set of spellings starting at the same code is another group (several breeds asked at once).
          expect(heldBreed(held, [...codes, dictionarySize(data.race.values)])).toBeUndefined()
        }
      }),
      { numRuns: 100 }
    )
  })

  it("holds no small breed at the thresholds of a full-scale extract", () => {
    fc.assert(
      fc.property(recordsArbitrary({ minLength: 1, maxLength: 40 }), (records) => {
        expect(buildDataset(records, PROVENANCE).breedShares.first).toHaveLength(0)
      }),
      { numRuns: 20 }
    )
  })
})
