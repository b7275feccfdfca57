/** Group `stats`: global counts and the breakdown of a filtered selection. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  DEFAULT_REPARTITION_DIMENSION,
  DEFAULT_REPARTITION_LIMITE,
  MAX_REPARTITION_LIMITE,
  MIN_REPARTITION_LIMITE
} from "../query/repartition.ts"
import { Repartition, Stats } from "../schemas/reference.ts"
import { REPARTITION_DIMENSIONS } from "../vocabulary.ts"
import { filterDefs } from "./filterParams.ts"
import { executionCost } from "./executionCost.ts"
import { Disponibilite } from "./middleware.ts"
import { clampedInt, documented, NoQuery, params, raw } from "./params.ts"

export const repartitionQuery = params("query", {
  ...filterDefs,
  // Taken as any string and checked by the query, whose refusal suggests the nearest dimension.
  dimension: raw({
    schema: { type: "string", enum: REPARTITION_DIMENSIONS, default: DEFAULT_REPARTITION_DIMENSION },
    description: "Dimension de la répartition (statut_reproducteur en plus de celles de la spécification).",
    expected: `une des valeurs ${REPARTITION_DIMENSIONS.join(", ")}`
  }),
  limite: clampedInt({
    minimum: MIN_REPARTITION_LIMITE,
    maximum: MAX_REPARTITION_LIMITE,
    default: DEFAULT_REPARTITION_LIMITE,
    description: "Nombre maximal de tranches, les plus nombreuses d'abord ; sans effet sur annee_naissance, renvoyée en entier."
  })
})

export class StatsApi extends HttpApiGroup.make("stats")
  .add(
    HttpApiEndpoint.get("global", "/v1/stats", {
      query: NoQuery,
      success: Stats
    }).annotateMerge(OpenApi.annotations({
      summary: "Comptages globaux, sans filtre",
      description:
        "Total, fiches avec et sans filiation, avec et sans performances, nombres de races, robes et disciplines, années extrêmes, répartition par sexe. " +
        "« Sans performances » signifie seulement qu'aucun indice n'est publié."
    })),
    HttpApiEndpoint.get("repartition", "/v1/stats/repartition", {
      query: repartitionQuery.fields,
      success: Repartition
    }).annotateMerge(documented(repartitionQuery))
      // 0–2 filters: ~0.026 ms on the sample ×148 ≈ 3.8 ms; full scale: 0.4–1 ms unfiltered, 8–11 ms over 1.65 M rows (docs/performance.md).
      .annotateMerge(executionCost(4))
      .annotateMerge(OpenApi.annotations({
      summary: "Répartition d'une sélection filtrée",
      description: "Mêmes filtres que /v1/equides ; tranches de la plus à la moins nombreuse (annee_naissance : chronologique)."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ description: "Statistiques" }))
{}
