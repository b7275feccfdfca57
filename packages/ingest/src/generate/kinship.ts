/**
 * Matings between relatives, so that the generated extract shows inbreeding like a real stud book:
 * breeders send a mare to her half-brother (a son of her own sire), back to her grandsire, or to a
 * son or grandson of a famous sire already in her pedigree (line breeding). Random matings alone,
 * in a population of millions, almost never join relatives.
 *
 * The stud book remembers the stallion sons of every sire as records are given their parents (in
 * birth order, so a mare's relatives are known when she is bred).
 */
import { EXTRACTION_YEAR, FIRST_YEAR } from "./calendar.ts"
import type { Rng } from "./prng.ts"

/** Share of the extraction year's kin matings already reached by the first foals of the extract. */
const KINSHIP_AT_FIRST_YEAR = 0.85
/**
 * Kin matings in the extraction year: nearly every foal of a pedigreed dam, since the registry has
 * 53 % of its horses with F = 0 (47 % inbred, two thirds of the horses with both parents known),
 * graded by the breed's `kinship` so that the closed stud books stay the more inbred.
 */
const KIN_FLOOR = 0.83
const KIN_SPREAD = 0.17

/**
 * Share of a breed's foals (with a known dam) born in `year` whose sire is chosen among the dam's
 * relatives: it grows over the years, as the dominant lines take a larger share of the studs, so
 * that the breed's inbreeding rises slowly, as in the real registry.
 */
export const kinMatingShare = (kinship: number, year: number): number =>
  (KIN_FLOOR + KIN_SPREAD * kinship) *
  (KINSHIP_AT_FIRST_YEAR + (1 - KINSHIP_AT_FIRST_YEAR) * (year - FIRST_YEAR) / (EXTRACTION_YEAR - FIRST_YEAR))

/**
 * How the relative is chosen: cumulative shares of the close plans (F = 1/8 each; with the line
 * breeding's accumulated loops they make the registry's 2.5 % with F ≥ 12.5 %). The rest is line breeding.
 */
const HALF_BROTHER = 0.008
const GRANDSIRE = 0.02

/**
 * Line breeding's sire is this many generations (or more) below the common ancestor in the first
 * half of the tries, one fewer in the second: distant loops keep each mating's F small (1/32 at
 * most, far less where the pedigree is deep), the shorter ones find a relative where it is shallow.
 */
const DOWN_MIN = 3

/** Tries to find a relative of the right age before falling back to an ordinary sire. */
const TRIES = 20

export class StudBook {
  private readonly sons = new Map<number, Array<number>>()
  private readonly sire: Int32Array
  private readonly dam: Int32Array
  private readonly year: Uint16Array

  constructor(sire: Int32Array, dam: Int32Array, year: Uint16Array) {
    this.sire = sire
    this.dam = dam
    this.year = year
  }

  /** Records that stallion `son` is by `sire`. */
  addStallion(son: number, sire: number): void {
    if (sire < 0) return
    const list = this.sons.get(sire)
    if (list === undefined) this.sons.set(sire, [son])
    else list.push(son)
  }

  /**
   * A sire related to `dam` for a foal born in `born`, aged `ages` at its birth, or -1 when the plan
   * drawn finds none (the caller then draws an ordinary sire).
   */
  relatedSire(dam: number, born: number, ages: readonly [number, number], rng: Rng): number {
    const fits = (candidate: number): boolean => {
      const age = born - this.year[candidate]
      return candidate >= 0 && candidate !== dam && age >= ages[0] && age <= ages[1]
    }
    const damSire = this.sire[dam]
    const plan = rng.float()
    // Her half-brother: a son of her own sire.
    if (plan < HALF_BROTHER && damSire >= 0) {
      const halfBrother = this.sonOf(damSire, fits, rng)
      if (halfBrother >= 0) return halfBrother
    }
    // Her grandsire on either side: a sire bred to his granddaughter.
    if (plan >= HALF_BROTHER && plan < GRANDSIRE) {
      const grandsire = this.sireOf(rng.chance(0.6) ? damSire : this.dam[dam])
      if (grandsire >= 0 && fits(grandsire)) return grandsire
    }
    // Otherwise line breeding, tried a few times: a descendant (2 to 5 generations down, through stallion
    // sons) of her sire or maternal grandsire or a sire up to 5 generations above them (as far as the
    // pedigree is known), neither her sire nor one of his sons.
    const distant = (candidate: number): boolean => candidate !== damSire && this.sire[candidate] !== damSire && fits(candidate)
    for (let t = 0; t < TRIES; t++) {
      let anchor = rng.chance(0.6) ? damSire : this.sireOf(this.dam[dam])
      for (let up = 2 + rng.below(4); up > 0 && this.sireOf(anchor) >= 0; up--) anchor = this.sire[anchor]
      if (anchor < 0) continue
      let candidate = anchor
      const depth = (t < TRIES / 2 ? DOWN_MIN : DOWN_MIN - 1) + rng.below(3)
      for (let down = depth; down > 1 && candidate >= 0; down--) candidate = this.sonOf(candidate, (son) => son !== damSire, rng)
      if (candidate < 0) continue
      const sire = this.sonOf(candidate, distant, rng)
      if (sire >= 0) return sire
    }
    return -1
  }

  private sireOf(child: number): number {
    return child < 0 ? -1 : this.sire[child]
  }

  private sonOf(sire: number, fits: (candidate: number) => boolean, rng: Rng): number {
    const list = this.sons.get(sire)
    if (list === undefined) return -1
    for (let t = 0; t < TRIES; t++) {
      const candidate = list[rng.below(list.length)]
      if (fits(candidate)) return candidate
    }
    return -1
  }
}
