/**
 * The discovery document (`GET /`): a client that knows only `/` finds every route by its use in
 * `endpoints` and builds every URL from `gabarits_url` (RFC 6570 templates).
 *
 * Key names (the spec leaves them open): French nouns of use, the same in both maps wherever a
 * route has a template. `endpoints` gives the route as served (path parameters in `{…}`);
 * `gabarits_url` adds the query parameters each route admits (`{?a,b}`, list values given
 * comma-separated, which the list filters accept), plus `fiche_source`, the public record at the
 * source registry (absolute; it needs the `slug` of the Equide).
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Decouverte } from "../schemas/service.ts"
import { API_VERSION, LICENCE_DONNEES, SOURCE_DONNEES } from "./meta.ts"
import { URL_FICHE_MODELE } from "./record.ts"

/** Shared filters of `/v1/equides` and `/v1/stats/repartition`, in the spec's order. */
const FILTRES = "race,robe,sexe,discipline,indice,annee_naissance,nom,annee_min,annee_max,avec_performances,statut_reproducteur"

/** Routes served, by use. */
export const ENDPOINTS: Readonly<Record<string, string>> = {
  decouverte: "/",
  sante: "/healthz",
  disponibilite: "/readyz",
  description: "/openapi.json",
  documentation: "/documentation",
  meta: "/v1/meta",
  liste: "/v1/equides",
  fiche: "/v1/equides/{id}",
  pedigree: "/v1/equides/{id}/pedigree",
  descendance: "/v1/equides/{id}/descendance",
  statistiques_descendance: "/v1/equides/{id}/descendance/statistiques",
  consanguinite: "/v1/equides/{id}/consanguinite",
  accouplement: "/v1/accouplements",
  genetique: "/v1/equides/{id}/genetique",
  recherche: "/v1/search",
  referentiel: "/v1/referentiels/{dimension}",
  statistiques: "/v1/stats",
  repartition: "/v1/stats/repartition",
  genetique_race: "/v1/stats/genetique",
  reproducteurs: "/v1/stats/reproducteurs",
  export: "/v1/export/equides",
  export_parquet: "/v1/export/equides.parquet"
}

/** URL templates (RFC 6570), by use. */
export const GABARITS_URL: Readonly<Record<string, string>> = {
  liste: `/v1/equides{?${FILTRES},tri,vue,limite,offset}`,
  fiche: "/v1/equides/{id}",
  pedigree: "/v1/equides/{id}/pedigree{?generations}",
  descendance: "/v1/equides/{id}/descendance{?limite,offset}",
  statistiques_descendance: "/v1/equides/{id}/descendance/statistiques",
  consanguinite: "/v1/equides/{id}/consanguinite{?generations}",
  accouplement: "/v1/accouplements{?pere,mere,generations}",
  genetique: "/v1/equides/{id}/genetique",
  recherche: "/v1/search{?q,limite}",
  referentiel: "/v1/referentiels/{dimension}",
  repartition: `/v1/stats/repartition{?dimension,${FILTRES},limite}`,
  genetique_race: "/v1/stats/genetique{?race,annee_min,annee_max}",
  reproducteurs: "/v1/stats/reproducteurs{?code,sexe,race,annee_min,annee_max,produits_min,limite,offset}",
  export: `/v1/export/equides{?${FILTRES},format}`,
  export_parquet: "/v1/export/equides.parquet",
  fiche_source: URL_FICHE_MODELE
}

export const NOM_SERVICE = "Équidés API"

export const DESCRIPTION_SERVICE =
  "API JSON publique en lecture seule sur un extrait daté des fiches publiques du registre français des équidés : identité, race, robe, sexe, année de naissance, filiation, indices de performance, pedigree et descendance, référentiels, statistiques et provenance."

export const AFFILIATION =
  "Service indépendant, sans lien avec l'IFCE ni le SIRE ; seules les fiches en ligne du registre font foi."

const cache = new WeakMap<DatasetData, Decouverte>()

/** The discovery document of a Dataset (memoised by identity). */
export const discovery = (data: DatasetData): Decouverte => {
  const known = cache.get(data)
  if (known !== undefined) return known
  const result: Decouverte = {
    nom: NOM_SERVICE,
    description: DESCRIPTION_SERVICE,
    version: API_VERSION,
    source: SOURCE_DONNEES,
    affiliation: AFFILIATION,
    documentation: ENDPOINTS.documentation,
    openapi: ENDPOINTS.description,
    licence_donnees: LICENCE_DONNEES,
    lignes: data.size,
    endpoints: ENDPOINTS,
    gabarits_url: GABARITS_URL
  }
  cache.set(data, result)
  return result
}
