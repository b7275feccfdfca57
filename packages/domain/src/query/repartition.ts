/**
 * GET /v1/stats/repartition: breakdown of a filtered selection along one dimension.
 * Order: count descending, then value; `annee_naissance` chronological and complete (`limite`
 * ignored). Values counted 0 in the selection are not listed. Rows without a value for the
 * dimension are not counted. For `discipline` a row counts once under each of its disciplines,
 * so `effectif_affiche` (the sum of the counts returned) counts row-discipline pairs and may
 * exceed `effectif_filtre`.
 */
import { Result } from "effect"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { QueryResult } from "./errors.ts"
import { inCodeOrder, type Modalite, postingsCounts, topByFrequency, unknownDimension } from "./referential.ts"
import { countColumnInBits, type Selection, selectionRows } from "./select.ts"

export const REPARTITION_DIMENSIONS = ["race", "robe", "sexe", "discipline", "annee_naissance", "statut_reproducteur"] as const
export type RepartitionDimension = (typeof REPARTITION_DIMENSIONS)[number]

export const DEFAULT_REPARTITION_DIMENSION: RepartitionDimension = "race"
export const MIN_REPARTITION_LIMITE = 1
export const MAX_REPARTITION_LIMITE = 1000
export const DEFAULT_REPARTITION_LIMITE = 50

export interface Repartition {
  readonly dimension: string
  readonly effectif_filtre: number
  readonly effectif_affiche: number
  readonly donnees: ReadonlyArray<Modalite>
}

/** `limite` of the breakdown: default 50, brought back into 1..1000 (never refused). */
export const clampRepartitionLimite = (limite: number | undefined): number =>
  limite === undefined || Number.isNaN(limite)
    ? DEFAULT_REPARTITION_LIMITE
    : Math.min(MAX_REPARTITION_LIMITE, Math.max(MIN_REPARTITION_LIMITE, Math.floor(limite)))

export const isRepartitionDimension = (value: string): value is RepartitionDimension =>
  (REPARTITION_DIMENSIONS as ReadonlyArray<string>).includes(value)

/** Counts per code of a single-valued column over the selected rows. */
const countColumn = (codes: ArrayLike<number>, valueCount: number, rows: Uint32Array): Uint32Array => {
  const counts = new Uint32Array(valueCount)
  for (let i = 0; i < rows.length; i++) counts[codes[rows[i]]]++
  return counts
}

const countsOf = (data: DatasetData, selection: Selection, dimension: RepartitionDimension): {
  readonly values: ReadonlyArray<string>
  readonly counts: Uint32Array
} => {
  if (dimension === "discipline") {
    const values = data.discipline.values
    const rows = selectionRows(data, selection)
    if (rows === undefined) return { values, counts: postingsCounts(data.discipline.rows) }
    const counts = new Uint32Array(values.length)
    const { offsets, rows: perRow } = data.rowDisciplines
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]
      for (let j = offsets[row]; j < offsets[row + 1]; j++) counts[perRow[j]]++
    }
    return { values, counts }
  }
  const dim = dimension === "race"
    ? data.race
    : dimension === "robe"
    ? data.robe
    : dimension === "sexe"
    ? data.sexe
    : dimension === "statut_reproducteur"
    ? data.statut
    : data.annee
  if (selection.all) return { values: dim.values, counts: postingsCounts(dim.rows) }
  return {
    values: dim.values,
    counts: selection.bits === undefined
      ? countColumn(dim.codes, dim.values.length, selectionRows(data, selection) ?? new Uint32Array(0))
      : countColumnInBits(dim.codes, dim.values.length, selection.bits)
  }
}

/**
 * Breakdown of `selection` along `dimension` (one of REPARTITION_DIMENSIONS). `limite` is brought
 * back into 1..1000 here (default 50) and ignored for `annee_naissance`. The whole Dataset reads
 * the postings lengths; a selection is counted in one pass over its rows (over its bits when it is
 * held as bits, without listing it).
 */
export const repartition = (
  data: DatasetData,
  selection: Selection,
  dimension: string,
  limite?: number
): QueryResult<Repartition> => {
  if (!isRepartitionDimension(dimension)) return Result.fail(unknownDimension(dimension, REPARTITION_DIMENSIONS))
  const { values, counts } = countsOf(data, selection, dimension)
  const donnees = dimension === "annee_naissance"
    ? inCodeOrder(values, counts)
    : topByFrequency(values, counts, clampRepartitionLimite(limite))
  let shown = 0
  for (const d of donnees) shown += d.nombre
  return Result.succeed({ dimension, effectif_filtre: selection.count, effectif_affiche: shown, donnees })
}
