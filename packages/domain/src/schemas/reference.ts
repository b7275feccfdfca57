/** Schemas of reference lists and counts: Referentiel (+ Modalite), Repartition (+ Tranche), Stats. */
import * as Schema from "effect/Schema"
import { Effectif } from "./common.ts"

export const Modalite = Schema.Struct({
  valeur: Schema.String.annotate({ description: "Valeur admise" }),
  nombre: Effectif.annotate({ description: "Nombre de fiches (d'occurrences de lien pour races_lien)" })
}).annotate({ identifier: "Modalite", description: "Une valeur d'un référentiel et sa fréquence" })
export type Modalite = typeof Modalite.Type

export const Referentiel = Schema.Struct({
  dimension: Schema.String.annotate({ description: "Nom du référentiel" }),
  nombre_de_modalites: Effectif.annotate({ description: "Nombre réel de valeurs, y compris celles coupées par la troncature" }),
  donnees: Schema.Array(Modalite).annotate({
    description: "Valeurs, de la plus à la moins fréquente (annees_naissance : complète et chronologique)"
  }),
  note: Schema.optionalKey(Schema.String.annotate({ description: "Présente seulement quand la liste est tronquée (2000 valeurs)" }))
}).annotate({ identifier: "Referentiel", description: "Valeurs admises par un filtre" })
export type Referentiel = typeof Referentiel.Type

/** A bucket of a breakdown. Both fields are unmarked (optional) in the spec; the service sends both. */
export const Tranche = Schema.Struct({
  valeur: Schema.optionalKey(Schema.String.annotate({ description: "Valeur de la dimension" })),
  nombre: Schema.optionalKey(Effectif.annotate({ description: "Nombre de fiches" }))
}).annotate({ identifier: "Tranche", description: "Une tranche d'une répartition" })
export type Tranche = typeof Tranche.Type

export const Repartition = Schema.Struct({
  dimension: Schema.String.annotate({ description: "Dimension de la répartition" }),
  effectif_filtre: Effectif.annotate({ description: "Fiches retenues par les filtres, avant découpage" }),
  effectif_affiche: Effectif.annotate({
    description:
      "Somme des nombres renvoyés ; inférieure à effectif_filtre quand limite tronque la liste ou que des fiches n'ont pas de valeur"
  }),
  donnees: Schema.Array(Tranche).annotate({ description: "Tranches, de la plus à la moins nombreuse (années : chronologique)" })
}).annotate({ identifier: "Repartition", description: "Répartition d'une sélection filtrée selon une dimension" })
export type Repartition = typeof Repartition.Type

const anneeOuNull = (description: string) => Schema.optionalKey(Schema.NullOr(Schema.Int).annotate({ description }))

/** Global counts. Every field is unmarked (optional) in the spec; the service sends them all. */
export const Stats = Schema.Struct({
  total: Schema.optionalKey(Effectif.annotate({ description: "Fiches chargées" })),
  avec_filiation: Schema.optionalKey(Effectif.annotate({ description: "Fiches dont au moins un parent est renseigné par un identifiant lisible" })),
  sans_filiation: Schema.optionalKey(Effectif.annotate({ description: "Fiches sans aucun parent identifié" })),
  avec_performances: Schema.optionalKey(Effectif.annotate({ description: "Fiches portant au moins un indice publié" })),
  sans_performances: Schema.optionalKey(
    Effectif.annotate({ description: "Fiches sans indice publié (ce qui ne signifie pas sans activité)" })
  ),
  nombre_de_races: Schema.optionalKey(Effectif.annotate({ description: "Valeurs distinctes du champ race des fiches" })),
  nombre_de_robes: Schema.optionalKey(Effectif.annotate({ description: "Robes distinctes" })),
  nombre_de_disciplines: Schema.optionalKey(Effectif.annotate({ description: "Disciplines distinctes" })),
  annee_naissance_min: anneeOuNull("Plus petite année de naissance présente (aberrantes comprises) ; null si aucune"),
  annee_naissance_max: anneeOuNull("Plus grande année de naissance présente ; null si aucune"),
  par_sexe: Schema.optionalKey(Schema.Array(Tranche).annotate({ description: "Fiches par sexe, de la plus à la moins nombreuse" })),
  avertissement: Schema.optionalKey(Schema.String.annotate({ description: "Rappel sur le sens de « sans performances »" }))
}).annotate({ identifier: "Stats", description: "Comptages globaux, sans filtre" })
export type Stats = typeof Stats.Type
