/** Group `export`: a whole selection as a file (design 7), NDJSON or CSV, streamed. */
import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { discoveryKey } from "./discoveryPlace.ts"
import { benchExcluded } from "./benchPlan.ts"
import * as Context from "effect/Context"
import { notWarmed, onWorkers } from "./workers.ts"
import { FILTER_PARAMETERS } from "../vocabulary.ts"
import { filterDefs } from "./filterParams.ts"
import { Disponibilite } from "./middleware.ts"
import { documented, NoQuery, oneOf, params } from "./params.ts"

/** The formats of a selection's export; its own module, not `vocabulary.ts` (in the snapshot builder's signature). */
export const EXPORT_FORMATS = ["ndjson", "csv"] as const

export const EXPORT_NDJSON_TYPE = "application/x-ndjson; charset=utf-8"
export const EXPORT_CSV_TYPE = "text/csv; charset=utf-8; header=present"

export const exportQuery = params("query", {
  ...filterDefs,
  format: oneOf(EXPORT_FORMATS, {
    default: "ndjson",
    description:
      "ndjson (une fiche Equide par ligne, octet pour octet celle de GET /v1/equides/{id}) ou csv (RFC 4180, fins de ligne CRLF, en-tête ; " +
      "pere, mere, pere_de_mere aplatis en _id, _nom, _race, _fiche_disponible ; performances en une cellule JSON)."
  })
})

/** An export's decoded query. */
export type ExportQuery = Schema.Struct<typeof exportQuery.fields>["Type"]

const ExportNdjson = Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/x-ndjson" })).annotate({
  description: "Une fiche Equide (JSON) par ligne, dans l'ordre du fichier source"
})

const ExportCsv = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description: "CSV RFC 4180 (CRLF, en-tête), une ligne par fiche, dans l'ordre du fichier source"
})

/**
 * What the server's export lane streams for a route (`rows`: a selection written a block at a time
 * as the body goes; `parquet`: the whole extract's file, from disk), declared on its definition:
 * the lane's route table and the routes served without content coding derive from it.
 */
export const Exported = Context.Reference<"rows" | "parquet" | undefined>("@equides/domain/Exported", { defaultValue: () => undefined })

/** The media type of Parquet (registered with IANA in 2024). */
export const PARQUET_TYPE = "application/vnd.apache.parquet"

const ExportParquet = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: PARQUET_TYPE })).annotate({
  description: "L'extraction entière en un fichier Parquet (colonnes typées, compression zstd)"
})

export class ExportApi extends HttpApiGroup.make("export")
  .add(
    HttpApiEndpoint.get("equides", "/v1/export/equides", {
      query: exportQuery.fields,
      success: [ExportNdjson, ExportCsv]
    }).annotateMerge(discoveryKey("export", { parameters: [...FILTER_PARAMETERS, "format"] }))
      .annotateMerge(Context.make(Exported, "rows"))
      .annotateMerge(benchExcluded("a whole selection streamed and paced by the quota (minutes at full scale): EXPORT_CONCURRENCY refuses a load"))
      .annotateMerge(documented(exportQuery)).annotateMerge(OpenApi.annotations({
      summary: "Exporter une sélection entière (NDJSON ou CSV)",
      description:
        "Toutes les fiches de la sélection (mêmes filtres que GET /v1/equides), dans l'ordre du fichier, sans limite de profondeur, en flux " +
        "(Content-Disposition: attachment). Le quota est prélevé au fil du corps (1 unité par 16 Kio) : quand il est épuisé, le flux attend " +
        "la recharge au lieu d'échouer ; les en-têtes RateLimit décrivent l'état au départ. Au plus EXPORT_CONCURRENCY exports à la fois (503 au-delà)."
    })),
    HttpApiEndpoint.get("equidesParquet", "/v1/export/equides.parquet", {
      query: NoQuery,
      success: ExportParquet
    }).annotateMerge(discoveryKey("export_parquet"))
      .annotateMerge(onWorkers("parquet"))
      .annotateMerge(Context.make(Exported, "parquet"))
      .annotateMerge(notWarmed("the whole extract written as a file (minutes of a worker), once per dataset"))
      .annotateMerge(benchExcluded("the whole extract written once as a file (minutes of a worker), then served from disk with Range"))
      .annotateMerge(OpenApi.annotations({
      summary: "L'extraction entière en Parquet",
      description:
        "Toutes les fiches, dans l'ordre du fichier, en un fichier Parquet par jeu de données (nommé d'après son empreinte) : colonnes de l'export CSV, " +
        "entiers INT32, booléens, textes UTF-8, absences nulles, performances en chaîne JSON ; compression zstd. Écrit à la première demande " +
        "(ou au démarrage, selon la configuration du service), puis servi depuis le disque, avec ETag, 304 et Range (206). Le quota est prélevé au fil du corps comme pour les autres exports."
    }))
  )
  .middleware(Disponibilite)
  .annotateMerge(OpenApi.annotations({ title: "export", description: "Exports : une sélection entière en un fichier" }))
{}
