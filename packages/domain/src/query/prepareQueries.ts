/**
 * What the queries otherwise build on first use in a thread, built ahead of its first request:
 * years per code, every reference list (its kept entries only), the large breeds' reference
 * populations, and the search's scans by the rarest whole word (their bitset, their compiled
 * loops). Call it once in each thread that answers, after the Dataset is attached.
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import { REFERENTIEL_DIMENSIONS } from "../vocabulary.ts"
import { yearOfCode } from "./filters.ts"
import { prepareBreeds } from "./genetique.ts"
import { referential } from "./referential.ts"
import { prepareWordScans } from "./suggestByWord.ts"

export const prepareQueries = (data: DatasetData): void => {
  yearOfCode(data.annee)
  for (const dimension of REFERENTIEL_DIMENSIONS) referential(data, dimension)
  prepareBreeds(data)
  prepareWordScans(data)
}
