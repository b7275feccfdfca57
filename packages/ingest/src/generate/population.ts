/**
 * The skeleton of a generated extract: birth year, sex, breed and parents of every record, plus the
 * source's defects, in typed arrays: 17 bytes a record are kept (75 MB at 4.45 million), the parent
 * pools add about as much while the graph is drawn. Everything else about a record is re-derived
 * from its key when it is written.
 *
 * Records are laid out by ascending birth year, which lets a parent be drawn from the animals born
 * 3 to 25 years earlier; the file order is a separate permutation, so parents often come after
 * their children in the file, as in the scrape.
 */
import { BREEDS } from "./breeds.ts"
import { calibrate, FIRST_YEAR, parentageRamp, YEAR_COUNT, yearWeight } from "./calendar.ts"
import { ID_DEFECTS, type IdDefect } from "./ids.ts"
import { kinMatingShare, shortestLoopOf, StudBook } from "./kinship.ts"
import { Pool } from "./pool.ts"
import { Rng, Weighted } from "./prng.ts"

/** Sexes as indexes into the spec's `SEXES`. */
export const FEMALE = 0
export const MALE = 1
export const GELDING = 2
export const UNDETERMINED = 3

export const STALLION = 1
export const BROODMARE = 2
export const HAS_PRODUCTS = 4

export type Side = "pere" | "mere"

export interface Defects {
  /** Records whose own id is written unreadable. */
  readonly ownId: ReadonlyMap<number, IdDefect>
  /** Records one of whose parent links carries an unreadable id. */
  readonly linkId: ReadonlyMap<number, { readonly side: Side; readonly defect: IdDefect }>
  /** Records written with an aberrant birth year. */
  readonly year: ReadonlyMap<number, number>
}

export interface Population {
  readonly seed: number
  /** Records written to the file: indices [0, count). */
  readonly count: number
  /** Records plus parents that are referenced but never written (dangling links). */
  readonly size: number
  readonly year: Uint16Array
  readonly sex: Uint8Array
  readonly breed: Uint8Array
  /** Parent indices, -1 when the source records none. */
  readonly sire: Int32Array
  readonly dam: Int32Array
  readonly flags: Uint8Array
  /** File order: order[k] is the index of the k-th line. */
  readonly order: Uint32Array
  readonly defects: Defects
}

const STREAM_POPULATION = 0x51

const SIRE_AGES = [3, 25] as const
const DAM_AGES = [3, 20] as const
/** Share of males that stand at stud; the others sire the odd foal, mostly where a breed has no stallion. */
const STUD_SHARE = 0.07
/**
 * Stud popularity is Pareto-distributed: a handful of stallions take a large share of the mares.
 * With this exponent the top sires have hundreds of products at 30 000 records and thousands at
 * 4.45 million, as in the registry (5 756 at most, seed 1; 3 871 with 1.7 and a cap of 110): the
 * mares gathered on fewer stallions give the slow drift of a stud book, many horses a little
 * inbred, which the registry's 47 % of inbred horses with a mean F of 0.8 % need.
 */
const STUD_TAIL = 1.4
/**
 * Bounds a stallion's popularity. At full scale it tames the stallions of the first years, who
 * face almost no competition; in small extracts, where a breed has only dozens of stallions, it
 * keeps one draw from siring a sizeable share of the whole file.
 */
const studCap = (count: number): number => Math.min(160, Math.max(10, count / 1500))
const NON_STUD_WEIGHT = 0.002
const BROODMARE_SHARE = 0.45
/**
 * Popularity kept by a stallion or broodmare without recorded parents: stud books breed from
 * pedigreed stock, so most foals' parents have known ancestry, which inbreeding needs.
 */
const UNPEDIGREED_WEIGHT = 0.02
const NON_BROODMARE_WEIGHT = 0.01

const PARENT_SCALE = calibrate(0.728, (breed, year) => BREEDS[breed].parentage * parentageRamp(year))

/** Scaled from the real extract's counts (4.45 million lines), with a floor so small files show them too. */
const scaled = (count: number, atFullScale: number, floors: ReadonlyArray<readonly [number, number]>): number => {
  let value = Math.round(count * atFullScale / 4_450_000)
  for (const [fromCount, floor] of floors) if (count >= fromCount) value = Math.max(value, floor)
  return Math.min(value, Math.floor(count / 4))
}

const ABERRANT_YEARS = [193, 2091, 1197, 2201, 19, 2910, 1066, 20125]

export const buildPopulation = (seed: number, count: number): Population => {
  const rng = new Rng(seed, 0, STREAM_POPULATION)
  const danglingLinks = scaled(count, 365, [[20, 1], [200, 4], [10_000, 8]])
  const capacity = count + danglingLinks
  const year = new Uint16Array(capacity)
  const sex = new Uint8Array(capacity)
  const breed = new Uint8Array(capacity)
  const sire = new Int32Array(capacity).fill(-1)
  const dam = new Int32Array(capacity).fill(-1)
  const flags = new Uint8Array(capacity)
  const weight = new Float64Array(capacity)

  // Years: drawn independently, then laid out in ascending order.
  const years = new Weighted(Array.from({ length: YEAR_COUNT }, (_, k) => [FIRST_YEAR + k, yearWeight(FIRST_YEAR + k)]))
  const perYear = new Int32Array(YEAR_COUNT)
  for (let i = 0; i < count; i++) perYear[years.pickIndex(rng)]++
  let next = 0
  for (let k = 0; k < YEAR_COUNT; k++) year.fill(FIRST_YEAR + k, next, next += perYear[k])

  const breeds = new Weighted(BREEDS.map((b, index) => [index, b.weight] as const))
  const sexes = new Weighted([[FEMALE, 55], [MALE, 28], [GELDING, 17]] as const)
  for (let i = 0; i < count; i++) {
    breed[i] = breeds.pick(rng)
    sex[i] = sexes.pick(rng)
  }
  // 143 of the 4.45 million real records: a Bernoulli draw would leave most samples without any.
  for (const i of distinctIndices(rng, count, scaled(count, 143, [[1000, 1]]), () => true)) sex[i] = UNDETERMINED

  // Whether a record has recorded parents is drawn first, since breeders favour pedigreed stock.
  const pedigreed = new Uint8Array(count)
  for (let i = 0; i < count; i++) pedigreed[i] = rng.chance(PARENT_SCALE * BREEDS[breed[i]].parentage * parentageRamp(year[i])) ? 1 : 0

  const cap = studCap(count)
  for (let i = 0; i < count; i++) {
    const standing = pedigreed[i] === 1 ? 1 : UNPEDIGREED_WEIGHT
    if (sex[i] === MALE) {
      if (rng.chance(STUD_SHARE)) {
        flags[i] |= STALLION
        weight[i] = standing * Math.min(cap, Math.pow(1 - rng.float(), -1 / STUD_TAIL))
      } else weight[i] = NON_STUD_WEIGHT
    } else if (sex[i] === FEMALE) {
      if (rng.chance(BROODMARE_SHARE)) {
        flags[i] |= BROODMARE
        weight[i] = standing * (0.5 + rng.float())
      } else weight[i] = NON_BROODMARE_WEIGHT
    }
  }

  const ofSex = (wanted: number): Int32Array => {
    let n = 0
    for (let i = 0; i < count; i++) if (sex[i] === wanted) n++
    const indices = new Int32Array(n)
    n = 0
    for (let i = 0; i < count; i++) if (sex[i] === wanted) indices[n++] = i
    return indices
  }
  const breedOf = (i: number) => breed[i]
  const yearOf = (i: number) => year[i]
  const weightOf = (i: number) => weight[i]
  const sires = new Pool(ofSex(MALE), weightOf, breedOf, yearOf, BREEDS.length)
  const dams = new Pool(ofSex(FEMALE), weightOf, breedOf, yearOf, BREEDS.length)

  const drawParent = (
    pool: Pool,
    from: ReadonlyArray<readonly [number, number]>,
    born: number,
    ages: readonly [number, number]
  ): number => {
    const fromYear = born - ages[1]
    const toYear = born - ages[0]
    let total = 0
    for (const [candidate, affinity] of from) total += affinity * pool.weight(candidate, fromYear, toYear)
    if (total <= 0) return -1
    let target = rng.float() * total
    let chosen = -1
    for (const [candidate, affinity] of from) {
      const share = affinity * pool.weight(candidate, fromYear, toYear)
      if (share <= 0) continue
      chosen = candidate
      if (target < share) break
      // Rounding may leave the target past the last share: the last breed with candidates takes it.
      target -= share
    }
    return pool.draw(chosen, fromYear, toYear, rng)
  }

  const studBook = new StudBook(sire, dam, year)
  const loopOf = BREEDS.map((b) => shortestLoopOf(b.kinship))
  for (let i = 0; i < count; i++) {
    const b = BREEDS[breed[i]]
    if (pedigreed[i] === 0) continue
    const shape = rng.float()
    if (shape >= 0.06) dam[i] = drawParent(dams, b.dams, year[i], DAM_AGES)
    if (shape < 0.94) {
      if (dam[i] >= 0 && rng.chance(kinMatingShare(b.kinship, year[i]))) sire[i] = studBook.relatedSire(dam[i], year[i], SIRE_AGES, loopOf[breed[i]], rng)
      if (sire[i] < 0) sire[i] = drawParent(sires, b.sires, year[i], SIRE_AGES)
    }
    if ((flags[i] & STALLION) !== 0) studBook.addStallion(i)
    studBook.addChild(i)
  }

  const size = addDanglingParents(rng, count, danglingLinks, { year, sex, breed, sire, dam })
  for (let i = 0; i < size; i++) {
    if (sire[i] >= 0) flags[sire[i]] |= HAS_PRODUCTS
    if (dam[i] >= 0) flags[dam[i]] |= HAS_PRODUCTS
  }

  const defects = chooseDefects(rng, count, { sire, dam, flags })

  // File order: a uniform shuffle, so that about half the links point forward.
  const order = new Uint32Array(count)
  for (let k = 0; k < count; k++) order[k] = k
  for (let k = count - 1; k > 0; k--) {
    const j = rng.below(k + 1)
    const swap = order[k]
    order[k] = order[j]
    order[j] = swap
  }

  return { seed, count, size, year, sex, breed, sire, dam, flags, order, defects }
}

/**
 * Distinct indices in [0, count) satisfying `accept`, drawn at random: exact counts (rather than
 * Bernoulli draws) make rare defects present at every size and their counts testable.
 */
const distinctIndices = (rng: Rng, count: number, wanted: number, accept: (index: number) => boolean): Set<number> => {
  const chosen = new Set<number>()
  for (let attempt = 0; chosen.size < wanted && attempt < wanted * 1000 + 10_000; attempt++) {
    const i = rng.below(count)
    if (!chosen.has(i) && accept(i)) chosen.add(i)
  }
  return chosen
}

interface Graph {
  readonly year: Uint16Array
  readonly sex: Uint8Array
  readonly breed: Uint8Array
  readonly sire: Int32Array
  readonly dam: Int32Array
}

/**
 * Redirects `links` parent links to parents that are never written: the scrape missed their pages.
 * Some of those parents are shared by several children, as in the real extract. A missing dam keeps
 * her own sire, so the child's `pere_de_mere` stays known. Returns the new size.
 */
const addDanglingParents = (rng: Rng, count: number, links: number, graph: Graph): number => {
  const { year, sex, breed, sire, dam } = graph
  let size = count
  const ghosts: Array<number> = []
  const hasParent = (i: number) => sire[i] >= 0 || dam[i] >= 0
  for (const child of distinctIndices(rng, count, links, hasParent)) {
    const side: Side = sire[child] >= 0 && (dam[child] < 0 || rng.chance(0.5)) ? "pere" : "mere"
    const parents = side === "pere" ? sire : dam
    const previous = parents[child]
    const wantedSex = side === "pere" ? 1 : 0
    let ghost = -1
    if (ghosts.length > 0 && rng.chance(0.45)) {
      // The first that fits from a random start: the side's sex and a breeding age, of the child's
      // parent's breed if one is (else of another: a small file has few missing parents to share).
      const start = rng.below(ghosts.length)
      let otherBreed = -1
      for (let t = 0; t < ghosts.length && ghost < 0; t++) {
        const candidate = ghosts[(start + t) % ghosts.length]
        const age = year[child] - year[candidate]
        if (sex[candidate] !== wantedSex || age < 3 || age > 20) continue
        if (breed[candidate] === breed[previous]) ghost = candidate
        else if (otherBreed < 0) otherBreed = candidate
      }
      if (ghost < 0) ghost = otherBreed
    }
    if (ghost < 0) {
      ghost = size++
      ghosts.push(ghost)
      year[ghost] = year[child] - rng.between(4, 14)
      sex[ghost] = wantedSex
      breed[ghost] = breed[previous]
      sire[ghost] = side === "mere" ? sire[previous] : -1
    }
    parents[child] = ghost
  }
  return size
}

const chooseDefects = (
  rng: Rng,
  count: number,
  graph: Pick<Graph, "sire" | "dam"> & { readonly flags: Uint8Array }
): Defects => {
  const { sire, dam, flags } = graph
  // Defects go to records nobody descends from, so that a child's pedigree stays checkable.
  const childless = (i: number) => (flags[i] & HAS_PRODUCTS) === 0
  const taken = new Set<number>()
  const free = (i: number) => childless(i) && !taken.has(i)

  const ownId = new Map<number, IdDefect>()
  for (const i of distinctIndices(rng, count, scaled(count, 40, [[10, 1], [100, 3]]), free)) {
    ownId.set(i, rng.pick(ID_DEFECTS))
    taken.add(i)
  }
  const linkId = new Map<number, { readonly side: Side; readonly defect: IdDefect }>()
  const inFile = (parent: number) => parent >= 0 && parent < count
  const withLink = (i: number) => free(i) && (inFile(sire[i]) || inFile(dam[i]))
  for (const i of distinctIndices(rng, count, scaled(count, 20, [[100, 2]]), withLink)) {
    const side: Side = inFile(sire[i]) && (!inFile(dam[i]) || rng.chance(0.5)) ? "pere" : "mere"
    linkId.set(i, { side, defect: rng.pick(ID_DEFECTS) })
    taken.add(i)
  }
  const yearDefects = new Map<number, number>()
  const orphan = (i: number) => free(i) && sire[i] < 0 && dam[i] < 0
  for (const i of distinctIndices(rng, count, scaled(count, 8, [[100, 1], [1000, 2]]), orphan)) {
    yearDefects.set(i, rng.pick(ABERRANT_YEARS))
    taken.add(i)
  }
  return { ownId, linkId, year: yearDefects }
}
