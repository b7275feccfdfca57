/**
 * Seeded randomness for the extract generator: xoshiro128** seeded through murmur3's finaliser.
 *
 * Only 32-bit integer arithmetic feeds the output, so a seed gives the same bytes on every machine.
 * A stream is keyed by (seed, index, stream) rather than drawn from one long sequence, so that the
 * details of a record (its name, its performances…) can be recomputed on their own, in any order,
 * without keeping them in memory.
 */

const GOLDEN = 0x9e3779b9

/** murmur3 fmix32: a bijection of the 32-bit integers that spreads every input bit. */
export const mix32 = (value: number): number => {
  let z = value >>> 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/**
 * Word `word` of the key (seed, index, stream). For fixed seed, stream and word it is a bijection of
 * `index`, so two indices never share a whole state (nor an id built from these words).
 */
export const keyWord = (seed: number, index: number, stream: number, word: number): number =>
  mix32((mix32(mix32((seed + Math.imul(word + 1, GOLDEN)) >>> 0) ^ index) + Math.imul(stream + 1, 0x7feb352d)) >>> 0)

// Four uniforms sum to a variance of 1/3: scaling by √3 gives unit deviation.
const SQRT3 = 1.7320508075688772

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k))

export class Rng {
  private s0 = 0
  private s1 = 0
  private s2 = 0
  private s3 = 0

  constructor(seed: number, index = 0, stream = 0) {
    this.reseed(seed, index, stream)
  }

  /** Reuses the object: the generator re-keys one Rng per record instead of allocating millions. */
  reseed(seed: number, index: number, stream: number): this {
    this.s0 = keyWord(seed, index, stream, 0)
    this.s1 = keyWord(seed, index, stream, 1)
    this.s2 = keyWord(seed, index, stream, 2)
    this.s3 = keyWord(seed, index, stream, 3)
    // xoshiro's one forbidden state.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1
    return this
  }

  nextU32(): number {
    const s1 = this.s1
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0
    const t = s1 << 9
    this.s2 ^= this.s0
    this.s3 ^= s1
    this.s1 ^= this.s2
    this.s0 ^= this.s3
    this.s2 ^= t
    this.s3 = rotl(this.s3, 11)
    return result
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296
  }

  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.float() * n)
  }

  /** Uniform integer in [low, high]. */
  between(low: number, high: number): number {
    return low + this.below(high - low + 1)
  }

  chance(probability: number): boolean {
    return this.float() < probability
  }

  pick<T>(items: ReadonlyArray<T>): T {
    return items[this.below(items.length)]
  }

  /** Roughly normal (Irwin–Hall of four uniforms): cheap, bounded, and enough for fake scores. */
  normal(mean: number, deviation: number): number {
    const sum = this.float() + this.float() + this.float() + this.float()
    return mean + (sum - 2) * deviation * SQRT3
  }
}

/** A fixed discrete distribution: built once, then O(log n) per draw. */
export class Weighted<T> {
  readonly items: ReadonlyArray<T>
  private readonly cumulative: Float64Array
  readonly total: number

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.items = entries.map(([item]) => item)
    this.cumulative = new Float64Array(entries.length)
    let total = 0
    entries.forEach(([, weight], i) => {
      total += weight
      this.cumulative[i] = total
    })
    this.total = total
  }

  pick(rng: Rng): T {
    return this.items[this.pickIndex(rng)]
  }

  pickIndex(rng: Rng): number {
    const target = rng.float() * this.total
    let low = 0
    let high = this.cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.cumulative[middle] > target) high = middle
      else low = middle + 1
    }
    return low
  }
}
