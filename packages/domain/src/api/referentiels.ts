/** Group `referentiels`: the values admitted by each filter. */
import * as Result from "effect/Result"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { referential } from "../query/referential.ts"
import { Referentiel } from "../schemas/reference.ts"
import { REFERENTIEL_DIMENSIONS } from "../vocabulary.ts"
import { bytesEstimate, ROW_BYTES } from "./bytesEstimate.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { Disponibilite } from "./middleware.ts"
import { documented, NoQuery, params, pathText } from "./params.ts"
import { example } from "./routeExample.ts"

export const referentielPath = params("path", {
  // Taken as any string and checked by the query, whose refusal suggests the nearest dimension.
  dimension: pathText({
    schema: { type: "string", enum: REFERENTIEL_DIMENSIONS },
    description:
      "Référentiel : races (champ race des fiches), races_lien (races déclarées sur les liens de filiation), robes, sexes, statuts_reproducteur, disciplines, codes_indice, annees_naissance. Inconnu : 400."
  })
})

export class ReferentielsApi extends HttpApiGroup.make("referentiels")
  .add(
    HttpApiEndpoint.get("get", "/v1/referentiels/:dimension", {
      params: referentielPath.fields,
      query: NoQuery,
      success: Referentiel
    }).annotateMerge(discoveryKey("referentiel"))
      .annotateMerge(example(({ data }) => ({ url: "/v1/referentiels/sexes", answer: () => Result.getOrUndefined(referential(data, "sexes")) })))
      .annotateMerge(bytesEstimate(() => ROW_BYTES.referentiel))
      .annotateMerge(documented(referentielPath))
      .annotateMerge(OpenApi.annotations({
      summary: "Valeurs admises par un filtre",
      description:
        "De la plus à la moins fréquente (annees_naissance : complète et chronologique) ; tronquée à 2000 valeurs, nombre_de_modalites donnant alors le total réel."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ description: "Référentiels des filtres" }))
{}
