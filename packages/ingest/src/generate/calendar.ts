/**
 * Birth years of the generated extract and the calibration of per-record chances against them.
 */
import { BREEDS } from "./breeds.ts"

export const FIRST_YEAR = 1975
export const EXTRACTION_YEAR = 2025
export const YEAR_COUNT = EXTRACTION_YEAR - FIRST_YEAR + 1

/** Registrations grow towards recent years; the extraction year is only half over. */
export const yearWeight = (year: number): number => {
  if (year === EXTRACTION_YEAR) return 0.5 * yearWeight(year - 1)
  return 1 + 3 * Math.pow((year - FIRST_YEAR) / (EXTRACTION_YEAR - 1 - FIRST_YEAR), 1.3)
}

/** Parents of the oldest records were registered before the extract begins, hence fewer links. */
export const parentageRamp = (year: number): number =>
  year < FIRST_YEAR + 3 ? 0 : Math.min(1, 0.3 + 0.1 * (year - FIRST_YEAR - 3))

/**
 * The factor `s` for which the expected share of records with `min(1, s × rate(breed, year))`
 * equals `target`, under the year and breed distributions. Solving it rather than hand-tuning keeps
 * the headline shares (72.8 % with a parent, 24.9 % with performances) right whatever the tables say.
 */
export const calibrate = (target: number, rate: (breed: number, year: number) => number): number => {
  let yearTotal = 0
  for (let year = FIRST_YEAR; year <= EXTRACTION_YEAR; year++) yearTotal += yearWeight(year)
  const breedTotal = BREEDS.reduce((sum, breed) => sum + breed.weight, 0)
  const share = (scale: number): number => {
    let sum = 0
    for (let year = FIRST_YEAR; year <= EXTRACTION_YEAR; year++) {
      let inYear = 0
      for (let breed = 0; breed < BREEDS.length; breed++) {
        inYear += BREEDS[breed].weight * Math.min(1, scale * rate(breed, year))
      }
      sum += yearWeight(year) * inYear / breedTotal
    }
    return sum / yearTotal
  }
  let low = 0
  let high = 64
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2
    if (share(middle) < target) low = middle
    else high = middle
  }
  return (low + high) / 2
}
