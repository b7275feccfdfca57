/**
 * What a route's answer weighs, estimated from its URI alone (design 3's bytes rule: a request
 * costs max(1, ⌈estimated bytes / 16 KiB⌉) quota units). A route whose answer can be large
 * declares its estimate on its definition (`bytesEstimate(…)`), as it declares its execution cost;
 * admission gathers them into one table (`server/src/admission/routes.ts`) and reads it before
 * anything is decoded: the values are the query string's, as received (a route without an estimate
 * costs 1 unit by this rule). Bounds and defaults are the routes' own; a value the route will refuse
 * is estimated at its bound (the 400 that follows is cheap anyway).
 */
import * as Context from "effect/Context"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { readInt } from "./params.ts"

/** The query values an estimate reads, as admission scans them from the URI (undefined: absent). */
export interface EstimateQuery {
  readonly limite: string | undefined
  readonly vue: string | undefined
  readonly generations: string | undefined
  readonly dimension: string | undefined
}

/** Estimated bytes of a route's answer to a query, over the data served. */
export type BytesEstimator = (query: EstimateQuery, data: DatasetData) => number

/** A route's estimate (undefined: none declared). */
export const BytesEstimate = Context.Reference<BytesEstimator | undefined>("@equides/domain/BytesEstimate", {
  defaultValue: () => undefined
})

/** A route's bytes estimate, declared on its definition (`annotateMerge`): read by the quota. */
export const bytesEstimate = (estimate: BytesEstimator) => Context.make(BytesEstimate, estimate)

/** Bytes of one row (or one whole answer) of each kind, as the quota estimates them. */
export const ROW_BYTES = {
  resume: 140,
  complet: 800,
  suggestion: 135,
  produit: 100,
  tranche: 41,
  noeud: 108,
  referentiel: 80_000,
  reproducteur: 200,
  /** A stallion's summary, coefficient, parente_moyenne and produits. */
  etalon: 230,
  /** A parent's offspring statistics at most: ~40 years, a few breeds, 19 index codes with their five best (~1 000 B each). */
  statistiquesDescendance: 20_000,
  ancetreCommun: 150,
  consanguinite: 700,
  anneeGenetique: 300,
  statsGenetique: 4_000
} as const

/** `raw` read as the decoder reads it (`readInt`), within [min, max]; `fallback` when absent or refused. */
export const intOr = (raw: string | undefined, fallback: number, min: number, max: number): number => {
  const value = raw === undefined ? undefined : readInt(raw)
  return value === undefined ? fallback : Math.min(max, Math.max(min, value))
}
