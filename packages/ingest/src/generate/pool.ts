/**
 * The candidate parents of one sex, grouped by breed then by birth year, with cumulative weights:
 * the animals of a breed born in a span of years are one contiguous slice, so drawing a parent
 * (weighted by stud popularity) costs one binary search, with no per-year rebuild, at any scale.
 */
import { FIRST_YEAR, YEAR_COUNT } from "./calendar.ts"
import type { Rng } from "./prng.ts"

export class Pool {
  private readonly members: Int32Array
  /** cumulative[p] = total weight of members[0..p). */
  private readonly cumulative: Float64Array
  /** yearStart[breed × (YEAR_COUNT + 1) + k] = first slot of `breed` born in FIRST_YEAR + k or later. */
  private readonly yearStart: Int32Array

  /** `indices` must be in ascending birth year, as the population is laid out. */
  constructor(
    indices: ArrayLike<number>,
    weightOf: (index: number) => number,
    breedOf: (index: number) => number,
    yearOf: (index: number) => number,
    breedCount: number
  ) {
    const n = indices.length
    const stride = YEAR_COUNT + 1
    const counts = new Int32Array(breedCount * stride)
    for (let k = 0; k < n; k++) counts[breedOf(indices[k]) * stride + yearOf(indices[k]) - FIRST_YEAR + 1]++
    this.yearStart = new Int32Array(breedCount * stride)
    let position = 0
    for (let breed = 0; breed < breedCount; breed++) {
      for (let y = 0; y < stride; y++) {
        position += counts[breed * stride + y]
        this.yearStart[breed * stride + y] = position
      }
    }
    // Counts were stored one year late, so the running sum lands on each run's first slot.
    const next = this.yearStart.slice()
    this.members = new Int32Array(n)
    for (let k = 0; k < n; k++) {
      const index = indices[k]
      this.members[next[breedOf(index) * stride + yearOf(index) - FIRST_YEAR]++] = index
    }
    this.cumulative = new Float64Array(n + 1)
    for (let p = 0; p < n; p++) this.cumulative[p + 1] = this.cumulative[p] + weightOf(this.members[p])
  }

  private slice(breed: number, fromYear: number, toYear: number): readonly [number, number] {
    const stride = YEAR_COUNT + 1
    const from = Math.max(0, fromYear - FIRST_YEAR)
    const to = Math.min(YEAR_COUNT, toYear - FIRST_YEAR + 1)
    if (to <= from) return [0, 0]
    return [this.yearStart[breed * stride + from], this.yearStart[breed * stride + to]]
  }

  /** Total weight of `breed` born in [fromYear, toYear]. */
  weight(breed: number, fromYear: number, toYear: number): number {
    const [low, high] = this.slice(breed, fromYear, toYear)
    return this.cumulative[high] - this.cumulative[low]
  }

  /** A member of `breed` born in [fromYear, toYear], drawn by weight; -1 if there is none. */
  draw(breed: number, fromYear: number, toYear: number, rng: Rng): number {
    const [low, high] = this.slice(breed, fromYear, toYear)
    if (high <= low) return -1
    const base = this.cumulative[low]
    const target = base + rng.float() * (this.cumulative[high] - base)
    let lo = low
    let hi = high - 1
    while (lo < hi) {
      const middle = (lo + hi + 1) >>> 1
      if (this.cumulative[middle] <= target) lo = middle
      else hi = middle - 1
    }
    return this.members[lo]
  }
}
