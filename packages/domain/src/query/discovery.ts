/**
 * The discovery document (`GET /`): a client that knows only `/` finds every route by its use in
 * `endpoints` and builds every URL from `gabarits_url` (RFC 6570 templates).
 *
 * Key names (the spec leaves them open): French nouns of use, the same in both maps wherever a
 * route has a template, each declared on its route's definition (`api/discoveryPlace.ts`). `endpoints` gives the route as served (path parameters in `{…}`);
 * `gabarits_url` adds the query parameters each route admits (`{?a,b}`, list values given
 * comma-separated, which the list filters accept), plus `fiche_source`, the public record at the
 * source registry (absolute; it needs the `slug` of the Equide).
 */
import { Api } from "../api/Api.ts"
import { discoveryEntriesOf, placed } from "../api/discoveryPlace.ts"
import { endpointsOf } from "../api/endpoints.ts"
import { DOCUMENTATION_PATH } from "../api/problems.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Decouverte } from "../schemas/service.ts"
import { API_VERSION, LICENCE_DONNEES, SOURCE_DONNEES } from "./meta.ts"
import { URL_FICHE_MODELE } from "./record.ts"

/**
 * The published routes: every route of the `Api` that declares its place (`discoveryKey` on its
 * definition, `api/discoveryPlace.ts`) and the documentation page, which the `Api` does not define.
 */
const ENTRIES = placed([
  ...discoveryEntriesOf(endpointsOf(Api)),
  { key: "documentation", path: DOCUMENTATION_PATH, template: undefined, after: "description" }
])

/** Routes served, by use. */
export const ENDPOINTS: Readonly<Record<string, string>> = Object.fromEntries(ENTRIES.map((entry) => [entry.key, entry.path]))

/** URL templates (RFC 6570), by use: the routes that take parameters, then the public record at the source. */
export const GABARITS_URL: Readonly<Record<string, string>> = Object.fromEntries([
  ...ENTRIES.flatMap((entry) => entry.template === undefined ? [] : [[entry.key, entry.template] as const]),
  ["fiche_source", URL_FICHE_MODELE]
])

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
