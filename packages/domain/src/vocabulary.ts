/**
 * The closed sets of values the spec defines, for filters, sorts, views and breakdowns. A leaf
 * module (it imports nothing): the Dataset, the queries, the response schemas and the HTTP API
 * all name these sets without importing one another.
 */

/** The four sexes of the spec, in this order; the Dataset's `sexe` codes 1..4 follow it. */
export const SEXES = ["Femelle", "Male", "Hongre", "Indeter"] as const
export type Sexe = (typeof SEXES)[number]

/** `tri` of the list: file order, folded name, birth year; `-` for the reverse. */
export const TRIS = ["naturel", "nom", "annee", "-naturel", "-nom", "-annee"] as const
export type Tri = (typeof TRIS)[number]

/** `vue` of the list: Resume rows (default) or full Equide rows. */
export const VUES = ["resume", "complet"] as const

/** The names of the shared filter parameters, in the order the spec lists them. */
export const FILTER_PARAMETERS = [
  "race",
  "robe",
  "sexe",
  "discipline",
  "indice",
  "annee_naissance",
  "nom",
  "annee_min",
  "annee_max",
  "avec_performances",
  "statut_reproducteur"
] as const

/** The reference lists of GET /v1/referentiels/{dimension}. */
export const REFERENTIEL_DIMENSIONS = [
  "races",
  "races_lien",
  "robes",
  "sexes",
  "statuts_reproducteur",
  "disciplines",
  "codes_indice",
  "annees_naissance"
] as const
export type ReferentielDimension = (typeof REFERENTIEL_DIMENSIONS)[number]

/** The dimensions of a breakdown (GET /v1/stats/repartition). */
export const REPARTITION_DIMENSIONS = ["race", "robe", "sexe", "discipline", "annee_naissance", "statut_reproducteur"] as const
export type RepartitionDimension = (typeof REPARTITION_DIMENSIONS)[number]
