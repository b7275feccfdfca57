/**
 * Test data for the breeds' shares: a Dataset's shares with every breed held, whatever its size
 * (the load holds the large ones only), loaded in 2003 as the arbitraries' years (2000–2004) ask.
 */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { breedSharesOf } from "./breedShares.ts"
import { inbreedingOf } from "./columns.ts"
import { rowPedigree } from "./ordered.ts"

/** Every breed of `data` held, whatever its size. */
export const everyBreedHeld = (data: DatasetData) =>
  breedSharesOf({
    race: data.race,
    year: data.year,
    noYear: NO_YEAR,
    loadYear: 2003,
    pedigree: rowPedigree({ sire: data.links.pere.row, dam: data.links.mere.row }, data.genetics),
    inbreeding: (row) => inbreedingOf(data.genetics, row),
    minAncestry: 0,
    minRecords: 1
  })
