/**
 * Matings between relatives, so that the generated extract shows inbreeding like a real stud book:
 * breeders send a mare to her half-brother (a son of her own sire), back to her grandsire, or to a
 * stallion who shares a distant ancestor with her (line breeding). Random matings alone, in a
 * population of millions, almost never join relatives.
 *
 * The stud book remembers every record's children and the stallion sons of every sire and dam as
 * records are given their parents (in birth order, so a mare's relatives are known when she is bred).
 */
import { EXTRACTION_YEAR, FIRST_YEAR } from "./calendar.ts"
import type { Rng } from "./prng.ts"

/** Share of the extraction year's kin matings already reached by the first foals of the extract. */
const KINSHIP_AT_FIRST_YEAR = 0.85
/**
 * Kin matings in the extraction year: nearly every foal of a pedigreed dam, since the registry has
 * 53 % of its horses with F = 0 (47 % inbred, two thirds of the horses with both parents known),
 * graded by the breed's `kinship`. A try often finds no relative where the pedigree is shallow.
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
 * How the relative is chosen: cumulative shares of the close plans (F = 1/8 each; with the other
 * loops they make the registry's 2.5 % with F ≥ 12.5 %). The rest is line breeding.
 */
const HALF_BROTHER = 0.025
const GRANDSIRE = 0.05

/**
 * Line breeding joins the mare and the stallion through one common ancestor, `loop` parent links
 * away in all (her side and his): F = (1/2)^(loop + 1) from that loop, 1.6 % for a loop of 5, 0.4 %
 * for 7. The shortest loop a breed uses, 6 − 3 × its `kinship` (a fraction is a chance of the next
 * shorter loop), is the lever of its mean F: measured at 4.45 M records, a closed trotting book
 * (Trotteur Francais, 3.6) reaches the 3.8 % the registry prints for its recent foals, the sport
 * horses (Selle Francais 4.8) 1.1–1.3 %. Longer loops are drawn up to `LOOP_SPREAD` − 1 more.
 */
export const shortestLoopOf = (kinship: number): number => 6 - 3 * kinship
const LOOP_SPREAD = 4

/** Tries to find a relative of the right age before falling back to an ordinary sire. */
const TRIES = 30
/**
 * Children a walk down looks at, among a record's most recent: enough to vary the lines, few enough
 * that a sire of thousands costs no more than a mare of three.
 */
const CHILDREN_LOOKED_AT = 12

const NONE = -1

export class StudBook {
  private readonly sons = new Map<number, Array<number>>()
  private readonly sire: Int32Array
  private readonly dam: Int32Array
  private readonly year: Uint16Array
  /** Children of each record as lists threaded through the child's own slot, youngest first. */
  private readonly youngestBySire: Int32Array
  private readonly youngestByDam: Int32Array
  private readonly olderBySire: Int32Array
  private readonly olderByDam: Int32Array
  private readonly children: Int32Array

  constructor(sire: Int32Array, dam: Int32Array, year: Uint16Array) {
    this.sire = sire
    this.dam = dam
    this.year = year
    const n = sire.length
    this.youngestBySire = new Int32Array(n).fill(NONE)
    this.youngestByDam = new Int32Array(n).fill(NONE)
    this.olderBySire = new Int32Array(n).fill(NONE)
    this.olderByDam = new Int32Array(n).fill(NONE)
    this.children = new Int32Array(n)
  }

  /** Records `child` (its parents already set) as the youngest child of each of them. */
  addChild(child: number): void {
    const s = this.sire[child]
    const d = this.dam[child]
    if (s >= 0) {
      this.olderBySire[child] = this.youngestBySire[s]
      this.youngestBySire[s] = child
      this.children[s]++
    }
    if (d >= 0) {
      this.olderByDam[child] = this.youngestByDam[d]
      this.youngestByDam[d] = child
      this.children[d]++
    }
  }

  /** Records that `son` (its parents already set) stands at stud. */
  addStallion(son: number): void {
    for (const parent of [this.sire[son], this.dam[son]]) {
      if (parent < 0) continue
      const list = this.sons.get(parent)
      if (list === undefined) this.sons.set(parent, [son])
      else list.push(son)
    }
  }

  /**
   * A sire related to `dam` for a foal born in `born`, aged `ages` at its birth, or -1 when the plan
   * drawn finds none (the caller then draws an ordinary sire). `shortestLoop` is the breed's
   * (`shortestLoopOf`).
   */
  relatedSire(dam: number, born: number, ages: readonly [number, number], shortestLoop: number, rng: Rng): number {
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
    if (damSire < 0 && this.dam[dam] < 0) return NONE
    // Otherwise line breeding: up from her by either parent to an ancestor about half the loop away
    // (so that the stallion is of an age to breed her), then down the other half through children
    // that have children of their own, the last link a son at stud. The first link down is never the
    // one her own line came by, so the loop has the length drawn; ancestors of either sex vary the
    // loops, where walking only the sire lines met the same few patriarchs in every pedigree and
    // piled their loops up (F of 4–7 % for a loop meant to give 0.2 %).
    const distant = (candidate: number): boolean => candidate !== damSire && this.sire[candidate] !== damSire && fits(candidate)
    for (let t = 0; t < TRIES; t++) {
      const loop = Math.floor(shortestLoop + rng.float()) + rng.below(LOOP_SPREAD)
      const herSide = Math.max(1, (loop + rng.below(2)) >> 1)
      let ancestor = dam
      let cameFrom = NONE
      for (let up = 0; up < herSide && ancestor >= 0; up++) {
        cameFrom = ancestor
        const bySire = rng.chance(0.5)
        const drawn = bySire ? this.sire[ancestor] : this.dam[ancestor]
        ancestor = drawn >= 0 ? drawn : bySire ? this.dam[ancestor] : this.sire[ancestor]
      }
      if (ancestor < 0) continue
      let candidate = ancestor
      for (let down = loop - herSide; down > 1 && candidate >= 0; down--) {
        candidate = this.breedingChildOf(candidate, candidate === ancestor ? cameFrom : NONE, rng)
      }
      if (candidate < 0) continue
      const sire = this.sonOf(candidate, distant, rng)
      if (sire >= 0) return sire
    }
    return NONE
  }

  private sireOf(child: number): number {
    return child < 0 ? NONE : this.sire[child]
  }

  /** One of `parent`'s most recent children that has children, other than `not`, or -1. */
  private breedingChildOf(parent: number, not: number, rng: Rng): number {
    const bySire = this.youngestBySire[parent] >= 0
    const older = bySire ? this.olderBySire : this.olderByDam
    let child = bySire ? this.youngestBySire[parent] : this.youngestByDam[parent]
    let chosen = NONE
    let seen = 0
    for (let k = 0; k < CHILDREN_LOOKED_AT && child >= 0; k++, child = older[child]) {
      if (child === not || this.children[child] === 0) continue
      // Each qualifying child is kept with probability 1/seen: a uniform choice in one pass.
      if (rng.below(++seen) === 0) chosen = child
    }
    return chosen
  }

  private sonOf(parent: number, fits: (candidate: number) => boolean, rng: Rng): number {
    const list = this.sons.get(parent)
    if (list === undefined) return NONE
    for (let t = 0; t < TRIES; t++) {
      const candidate = list[rng.below(list.length)]
      if (fits(candidate)) return candidate
    }
    return NONE
  }
}
