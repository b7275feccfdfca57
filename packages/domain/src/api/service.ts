/** Group `service` (top level in the client): discovery, probes, the OpenAPI document, meta. */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { API_VERSION, meta } from "../query/meta.ts"
import { Decouverte, Meta, Sante } from "../schemas/service.ts"
import { discoveryKey } from "./discoveryPlace.ts"
import { Disponibilite } from "./middleware.ts"
import { NoQuery } from "./params.ts"
import { example } from "./routeExample.ts"

/**
 * Whether a route is a probe (`/healthz`, `/readyz`): admission runs it outside the concurrency
 * gate, so that it stays responsive under load (the server's `admission/routes.ts` `PROBES`).
 */
export const Probe = Context.Reference<boolean>("@equides/domain/Probe", { defaultValue: () => false })

/** The probes' 503 body: Sante with `statut: "indisponible"` (no data loaded). */
export const SanteIndisponible = Sante.pipe(HttpApiSchema.status(503))

/** `GET /` for people (an `Accept` preferring `text/html`). */
export const PageAccueil = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" })).annotate({
  description: "Page d'accueil pour les personnes (Accept préférant text/html) : liens vers la documentation et la description OpenAPI"
})

export const DocumentOpenApi = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "Description OpenAPI 3.1 du service"
})

const probe = (name: "healthz" | "readyz", key: string, summary: string) =>
  HttpApiEndpoint.get(name, `/${name}`, {
    query: NoQuery,
    success: Sante,
    error: SanteIndisponible
  }).annotateMerge(discoveryKey(key))
    .annotateMerge(Context.make(Probe, true))
    .annotateMerge(example(({ data }) => ({ url: `/${name}`, answer: () => ({ statut: "ok", lignes: data.size, version: API_VERSION }) }))).annotateMerge(OpenApi.annotations({
    summary,
    description:
      "200 avec statut ok quand des données sont chargées ; 503 avec statut indisponible sinon. /healthz et /readyz se comportent de la même façon : les données sont chargées avant la première écoute."
  }))

export class ServiceApi extends HttpApiGroup.make("service", { topLevel: true })
  .add(
    HttpApiEndpoint.get("discovery", "/", {
      query: NoQuery,
      success: [Decouverte, PageAccueil]
    }).annotateMerge(discoveryKey("decouverte"))
      .annotateMerge(example(({ discovery }) => ({ url: "/", answer: discovery }))).middleware(Disponibilite).annotateMerge(OpenApi.annotations({
      summary: "Document de découverte",
      description:
        "Decouverte (JSON) pour tout client, sauf si Accept préfère text/html (une page pour les personnes). Publie les routes et les gabarits d'URL : un client qui ne connaît que cette URL construit toutes les autres."
    })),
    probe("healthz", "sante", "Sonde de vivacité"),
    probe("readyz", "disponibilite", "Sonde de disponibilité"),
    HttpApiEndpoint.get("openapi", "/openapi.json", {
      query: NoQuery,
      success: DocumentOpenApi
    }).annotateMerge(discoveryKey("description"))
      .annotateMerge(example(({ openapi }) => ({ url: "/openapi.json", answer: openapi }))).middleware(Disponibilite).annotateMerge(OpenApi.annotations({
      summary: "Description OpenAPI 3.1 du service",
      description:
        "Ce document : routes, paramètres (avec exemples tirés des données chargées), réponses et en-têtes. Une référence interactive le présente à /documentation/reference."
    })),
    HttpApiEndpoint.get("meta", "/v1/meta", {
      query: NoQuery,
      success: Meta
    }).annotateMerge(discoveryKey("meta"))
      .annotateMerge(example(({ data }) => ({ url: "/v1/meta", answer: () => meta(data) }))).middleware(Disponibilite).annotateMerge(OpenApi.annotations({
      summary: "Provenance, licence, qualité des données",
      description: "source et ingere_le sont à citer en cas de réutilisation ; empreinte_source identifie exactement l'extraction."
    }))
  )
  .annotateMerge(OpenApi.annotations({ title: "service", description: "Découverte, sondes, description, provenance" }))
{}
