/**
 * GET /v1/stats/repartition: breakdown of a filtered selection along one dimension.
 * Order: count descending, then value; `annee_naissance` chronological and complete (`limite`
 * ignored). Values counted 0 in the selection are not listed. Rows without a value for the
 * dimension are not counted. For `discipline` a row counts once under each of its disciplines,
 * so `effectif_affiche` (the sum of the counts returned) counts row-discipline pairs and may
 * exceed `effectif_filtre`.
 */
import * as Result from "effect/Result"
import { type Dictionary, dictionarySize } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { REPARTITION_DIMENSIONS, type RepartitionDimension } from "../vocabulary.ts"
import type { QueryResult } from "./errors.ts"
import { type CountStats, countSelection, type Values } from "./counting.ts"
import { inCodeOrder, type Modalite, topByFrequency, unknownDimension } from "./referential.ts"
import type { Selection } from "./selection.ts"

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

const valuesOf = (data: DatasetData, dimension: RepartitionDimension): Values => {
  switch (dimension) {
    case "discipline":
      return { kind: "lists", perRow: data.rowDisciplines, totals: data.discipline.rows, valueCount: dictionarySize(data.discipline.values) }
    case "race":
      return { kind: "column", dim: data.race }
    case "robe":
      return { kind: "column", dim: data.robe }
    case "sexe":
      return { kind: "column", dim: data.sexe }
    case "statut_reproducteur":
      return { kind: "column", dim: data.statut }
    case "annee_naissance":
      return { kind: "column", dim: data.annee, upTo: data.yearsUpTo }
  }
}

const labelsOf = (values: Values, data: DatasetData): Dictionary =>
  values.kind === "column" ? values.dim.values : data.discipline.values

/**
 * Breakdown of `selection` along `dimension` (one of REPARTITION_DIMENSIONS). `limite` is brought
 * back into 1..1000 here (default 50) and ignored for `annee_naissance`. The whole Dataset reads
 * the postings lengths; a selection is counted the cheapest way (`counting.ts`), which `stats`
 * reports when given.
 */
export const repartition = (
  data: DatasetData,
  selection: Selection,
  dimension: string,
  limite?: number,
  stats?: CountStats
): QueryResult<Repartition> => {
  if (!isRepartitionDimension(dimension)) return Result.fail(unknownDimension(dimension, REPARTITION_DIMENSIONS))
  const source = valuesOf(data, dimension)
  const values = labelsOf(source, data)
  const counts = countSelection(data, selection, source, stats)
  const donnees = dimension === "annee_naissance"
    ? inCodeOrder(values, counts)
    : topByFrequency(values, counts, clampRepartitionLimite(limite))
  let shown = 0
  for (const d of donnees) shown += d.nombre
  return Result.succeed({ dimension, effectif_filtre: selection.count, effectif_affiche: shown, donnees })
}
