/**
 * The shares (groupCoancestry.ts) of each large breed's reference population, computed once at
 * load and held in the Dataset, so shared by every query thread and read from the snapshot: a
 * breed's mean coancestry (`parente_moyenne`) then costs one walk up the animals asked about.
 * Computing a large breed's shares takes 50–170 ms at 4.45 M records (its reference population's
 * ancestry: 200 000–320 000 animals), too much for a first request and, per thread, for memory;
 * a small breed's (under 10 000 ancestors) take 1–5 ms and are computed where they are asked for.
 */
import { type Dimension, postingsCount, postingsOf } from "../dataset/columns.ts"
import { codesFoldingAs } from "../dataset/foldedCodes.ts"
import { type GroupShares, groupShares } from "./groupCoancestry.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { type ReferencePopulation, referenceOfLastYear, referencePopulation } from "./reference.ts"

/**
 * Breeds whose reference population's ancestry reaches this many animals are held (about 5 ms or
 * more to compute in a thread at 4.45 M records, 30–35 ms as a worker's first request): 17 breeds of
 * the generated extract, 18.3 MiB; at 20 000, 12 breeds and 17.2 MiB, and Welsh, Connemara, Breton,
 * Shetland and Comtois were each a worker's 30 ms first use (issue 24 item 6).
 */
export const HELD_ANCESTRY = 10_000
/** A race spelling carried by fewer records starts no breed to hold (its breed may still be held through another spelling). */
const HELD_RECORDS = 500

export interface BreedShares {
  /** The smallest race code of each breed held, ascending. */
  readonly first: Uint32Array
  /** How many race codes each breed held covers (its spellings). */
  readonly spellings: Uint32Array
  /**
   * Breed k's shares are `low` and `values` from `offsets[k]` to `offsets[k + 1]`, the starts of
   * their blocks `blocks` from `blockOffsets[k]` to `blockOffsets[k + 1]` (groupCoancestry.ts).
   */
  readonly offsets: Uint32Array
  readonly low: Uint16Array
  readonly blockOffsets: Uint32Array
  readonly blocks: Uint32Array
  readonly values: Float64Array
  /** Breed k's reference population: its last year, its rows from `memberOffsets[k]` to `memberOffsets[k + 1]`, their mean F. */
  readonly lastYear: Int32Array
  readonly memberOffsets: Uint32Array
  readonly members: Int32Array
  readonly meanInbreeding: Float64Array
}

/** A breed held: its reference population, its mean F and its shares (views of the Dataset's). */
export interface HeldBreed {
  readonly reference: ReferencePopulation
  readonly meanInbreeding: number
  readonly shares: GroupShares
}

/** The rows of the race codes `codes`, ascending. */
export const rowsOfCodes = (race: Pick<Dimension, "rows">, codes: ReadonlyArray<number>): Uint32Array => {
  const parts = codes.map((code) => postingsOf(race.rows, code))
  const all = new Uint32Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.length
  }
  return parts.length > 1 ? all.sort() : all
}

export interface BreedSharesInput {
  readonly race: Pick<Dimension, "folded" | "values" | "rows">
  readonly year: Int32Array
  readonly noYear: number
  readonly loadYear: number
  readonly pedigree: OrderedPedigree
  /** F of a row. */
  readonly inbreeding: (row: number) => number
  /** `HELD_ANCESTRY` and `HELD_RECORDS` unless given (a test holds every breed). */
  readonly minAncestry?: number
  readonly minRecords?: number
}

/** The shares of every breed whose reference population's ancestry reaches `HELD_ANCESTRY` animals. */
export const breedSharesOf = (input: BreedSharesInput): BreedShares => {
  const { minAncestry = HELD_ANCESTRY, minRecords = HELD_RECORDS, race } = input
  const held: Array<{ readonly codes: ReadonlyArray<number>; readonly reference: ReferencePopulation; readonly shares: GroupShares }> = []
  const seen = new Set<number>()
  for (let code = 1; code < race.rows.offsets.length - 1; code++) {
    if (postingsCount(race.rows, code) < minRecords) continue
    const codes = codesFoldingAs(race, code)
    if (seen.has(codes[0])) continue
    seen.add(codes[0])
    const reference = referencePopulation(input.year, input.noYear, rowsOfCodes(race, codes), input.loadYear)
    if (reference === null) continue
    const shares = groupShares(input.pedigree, input.inbreeding, reference.rows)
    if (shares !== null && shares.values.length >= minAncestry) held.push({ codes, reference, shares })
  }
  held.sort((a, b) => a.codes[0] - b.codes[0])
  const offsets = new Uint32Array(held.length + 1)
  const blockOffsets = new Uint32Array(held.length + 1)
  const memberOffsets = new Uint32Array(held.length + 1)
  for (const [k, { reference, shares }] of held.entries()) {
    offsets[k + 1] = offsets[k] + shares.values.length
    blockOffsets[k + 1] = blockOffsets[k] + shares.blocks.length
    memberOffsets[k + 1] = memberOffsets[k] + reference.rows.length
  }
  const low = new Uint16Array(offsets[held.length])
  const blocks = new Uint32Array(blockOffsets[held.length])
  const values = new Float64Array(offsets[held.length])
  const members = new Int32Array(memberOffsets[held.length])
  const meanInbreeding = new Float64Array(held.length)
  for (const [k, { reference, shares }] of held.entries()) {
    low.set(shares.low, offsets[k])
    blocks.set(shares.blocks, blockOffsets[k])
    values.set(shares.values, offsets[k])
    members.set(reference.rows, memberOffsets[k])
    meanInbreeding[k] = meanOf(input.inbreeding, reference.rows)
  }
  return {
    first: Uint32Array.from(held, ({ codes }) => codes[0]),
    spellings: Uint32Array.from(held, ({ codes }) => codes.length),
    offsets,
    low,
    blockOffsets,
    blocks,
    values,
    lastYear: Int32Array.from(held, ({ reference }) => reference.annee_max),
    memberOffsets,
    members,
    meanInbreeding
  }
}

/** The mean F of `rows` (not empty). */
export const meanOf = (inbreeding: (row: number) => number, rows: ArrayLike<number>): number => {
  let sum = 0
  for (let k = 0; k < rows.length; k++) sum += inbreeding(rows[k])
  return sum / rows.length
}

/** The breed whose race codes are `codes` (ascending) if the Dataset holds it. */
export const heldBreed = (held: BreedShares, codes: ReadonlyArray<number>): HeldBreed | undefined => {
  let low = 0
  let high = held.first.length - 1
  while (low <= high) {
    const k = (low + high) >>> 1
    const first = held.first[k]
    if (first === codes[0]) {
      if (held.spellings[k] !== codes.length) return undefined
      return {
        reference: referenceOfLastYear(held.lastYear[k], held.members.subarray(held.memberOffsets[k], held.memberOffsets[k + 1])),
        meanInbreeding: held.meanInbreeding[k],
        shares: {
          low: held.low.subarray(held.offsets[k], held.offsets[k + 1]),
          blocks: held.blocks.subarray(held.blockOffsets[k], held.blockOffsets[k + 1]),
          values: held.values.subarray(held.offsets[k], held.offsets[k + 1])
        }
      }
    }
    if (first < codes[0]) low = k + 1
    else high = k - 1
  }
  return undefined
}
