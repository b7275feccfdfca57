/**
 * The whole HTTP API: its groups, the middleware every route shares, the parse options that make
 * an unknown query parameter a 400 on every route, and the OpenAPI metadata.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { API_VERSION, LICENCE_DONNEES, LICENCE_DONNEES_URL } from "../query/meta.ts"
import { ConsanguiniteApi } from "./consanguinite.ts"
import { EquidesApi } from "./equides.ts"
import { ExportApi } from "./exports.ts"
import { QUOTA_RULE } from "./executionCost.ts"
import { GenetiqueApi } from "./genetique.ts"
import { Quota, Validation } from "./middleware.ts"
import { completeDocument } from "./openapi.ts"
import { ReferentielsApi } from "./referentiels.ts"
import { SearchApi } from "./search.ts"
import { ServiceApi } from "./service.ts"
import { StatsApi } from "./stats.ts"

export class Api extends HttpApi.make("equides-api")
  .add(ServiceApi, EquidesApi, ConsanguiniteApi, GenetiqueApi, SearchApi, ReferentielsApi, StatsApi, ExportApi)
  // Added after the groups on purpose: middleware reaches only the endpoints already present.
  .middleware(Validation)
  .middleware(Quota)
  // Unknown query parameters are refused, never ignored (the schema-level annotation is not honoured).
  .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error" })
  .annotateMerge(OpenApi.annotations({
    title: "Équidés API",
    version: API_VERSION,
    description:
      "API publique en lecture seule sur une extraction datée des fiches publiques du registre français des équidés : identité, race, robe, sexe, " +
      "année de naissance, filiation, indices de performance ; pedigree, descendance, référentiels, statistiques, provenance. " +
      "Toutes les routes répondent à GET et HEAD en application/json; charset=utf-8, les erreurs en application/problem+json (RFC 9457, type relatif " +
      "vers /documentation). Tout paramètre de requête non listé pour une route est refusé (400). Aucune authentification. " +
      "Réutilisation : citer source et ingere_le de /v1/meta. " + QUOTA_RULE,
    license: { name: LICENCE_DONNEES, url: LICENCE_DONNEES_URL },
    // Relative: the document describes the origin that serves it (a replica, a test server on port 0).
    servers: [{ url: "/", description: "L'origine qui sert ce document" }],
    transform: completeDocument
  }))
{}
