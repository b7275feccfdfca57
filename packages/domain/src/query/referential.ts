/**
 * GET /v1/referentiels/{dimension}: the values a filter admits, with their counts.
 * Order: count descending, then value (code-unit order); `annees_naissance` chronological and
 * complete. Lists are cut at 2000 entries, `nombre_de_modalites` then gives the real total and
 * `note` says so. Code 0 (absent) is never a value.
 */
import * as Result from "effect/Result"
import { compareDictionaryValues, type Dictionary, dictionarySize, dictionaryValue, postingsCount, type Postings } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { admittedValuesHint, hintFor, nearestValues } from "../refusal/hints.ts"
import { REFERENTIEL_DIMENSIONS, type ReferentielDimension } from "../vocabulary.ts"
import { InvalidParameter, notAdmitted, type QueryResult } from "./errors.ts"
import { memoPer } from "./memo.ts"

export const MAX_MODALITES = 2000

export interface Modalite {
  readonly valeur: string
  readonly nombre: number
}

export interface Referentiel {
  readonly dimension: string
  readonly nombre_de_modalites: number
  readonly donnees: ReadonlyArray<Modalite>
  readonly note?: string
}

/**
 * The `k` most frequent values with their counts, ties by value (code-unit order); code 0 skipped,
 * and values counted 0 skipped unless `keepZero`. Without sorting every value: a dimension
 * polluted by race times has hundreds of thousands of values, and a breakdown shows at most 1000,
 * a reference list 2000. The `k` best are kept in a heap whose root is the worst kept, so most
 * values are turned away with one comparison.
 */
export const topByFrequency = (values: Dictionary, counts: ArrayLike<number>, k: number, keepZero = false): Array<Modalite> => {
  const before = (a: number, b: number): boolean =>
    counts[a] > counts[b] || (counts[a] === counts[b] && compareDictionaryValues(values, a, b) < 0)
  const heap = new Uint32Array(Math.max(0, k))
  let size = 0
  const siftDown = (from: number): void => {
    let i = from
    for (;;) {
      const left = 2 * i + 1
      if (left >= size) return
      const right = left + 1
      const worse = right < size && before(heap[left], heap[right]) ? right : left
      if (!before(heap[i], heap[worse])) return
      const swap = heap[i]
      heap[i] = heap[worse]
      heap[worse] = swap
      i = worse
    }
  }
  const codeCount = dictionarySize(values)
  for (let code = 1; code < codeCount && k > 0; code++) {
    if (counts[code] === 0 && !keepZero) continue
    if (size < k) {
      let i = size++
      heap[i] = code
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!before(heap[parent], heap[i])) break
        const swap = heap[i]
        heap[i] = heap[parent]
        heap[parent] = swap
        i = parent
      }
    } else if (before(code, heap[0])) {
      heap[0] = code
      siftDown(0)
    }
  }
  return Array.from(heap.subarray(0, size))
    .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    .map((code) => ({ valeur: dictionaryValue(values, code), nombre: counts[code] }))
}

/** Values in dictionary order (chronological for the `annee` dimension), zeros skipped. */
export const inCodeOrder = (values: Dictionary, counts: ArrayLike<number>): Array<Modalite> => {
  const out: Array<Modalite> = []
  for (let code = 1; code < dictionarySize(values); code++) {
    if (counts[code] > 0) out.push({ valeur: dictionaryValue(values, code), nombre: counts[code] })
  }
  return out
}

/** Per-code counts of a postings (rows per code). */
export const postingsCounts = (postings: Postings): Uint32Array => {
  const keys = postings.offsets.length - 1
  const counts = new Uint32Array(keys)
  for (let code = 0; code < keys; code++) counts[code] = postingsCount(postings, code)
  return counts
}

export const isReferentielDimension = (value: string): value is ReferentielDimension =>
  (REFERENTIEL_DIMENSIONS as ReadonlyArray<string>).includes(value)

export const unknownDimension = (dimension: string, admitted: ReadonlyArray<string>): InvalidParameter =>
  notAdmitted("dimension", dimension, hintFor(nearestValues(dimension, admitted), admittedValuesHint(admitted)))

/** The French note of a truncated list. */
export const truncationNote = (total: number): string =>
  `Liste tronquée aux ${MAX_MODALITES} valeurs les plus fréquentes sur ${total} ; ` +
  `les valeurs non affichées restent admises par les filtres.`

/** Codes 1.. of a dimension counted more than 0 (all of them with `keepZero`). */
const presentCount = (counts: ArrayLike<number>, keepZero: boolean): number => {
  let present = 0
  for (let code = 1; code < counts.length; code++) if (keepZero || counts[code] > 0) present++
  return present
}

/** A reference list by frequency, cut at MAX_MODALITES (only the kept entries are built). */
const byFrequency = (dimension: ReferentielDimension, values: Dictionary, counts: ArrayLike<number>, keepZero = false): Referentiel => {
  const total = presentCount(counts, keepZero)
  const donnees = topByFrequency(values, counts, MAX_MODALITES, keepZero)
  return total > MAX_MODALITES
    ? { dimension, nombre_de_modalites: total, donnees, note: truncationNote(total) }
    : { dimension, nombre_de_modalites: total, donnees }
}

const build = (data: DatasetData, dimension: ReferentielDimension): Referentiel => {
  switch (dimension) {
    case "races":
      return byFrequency(dimension, data.race.values, postingsCounts(data.race.rows))
    case "races_lien":
      return byFrequency(dimension, data.links.races, data.links.raceCounts)
    case "robes":
      return byFrequency(dimension, data.robe.values, postingsCounts(data.robe.rows))
    case "sexes":
      return byFrequency(dimension, data.sexe.values, postingsCounts(data.sexe.rows), true)
    case "statuts_reproducteur":
      return byFrequency(dimension, data.statut.values, postingsCounts(data.statut.rows))
    case "disciplines":
      return byFrequency(dimension, data.discipline.values, postingsCounts(data.discipline.rows))
    case "codes_indice":
      return byFrequency(dimension, data.indice.values, postingsCounts(data.indice.rows))
    case "annees_naissance": {
      // Complete and chronological: never cut.
      const all = inCodeOrder(data.annee.values, postingsCounts(data.annee.rows))
      return { dimension, nombre_de_modalites: all.length, donnees: all }
    }
  }
}

const cache = memoPer<DatasetData, ReferentielDimension, Referentiel>()

/**
 * The reference list of `dimension` (one of REFERENTIEL_DIMENSIONS); computed once per Dataset
 * and dimension, then shared: do not mutate the result.
 */
export const referential = (data: DatasetData, dimension: string): QueryResult<Referentiel> => {
  if (!isReferentielDimension(dimension)) return Result.fail(unknownDimension(dimension, REFERENTIEL_DIMENSIONS))
  return Result.succeed(cache(data, dimension, () => build(data, dimension)))
}
