/** Schemas of the service documents: Meta (+ jeu_de_donnees, anomalies), Decouverte, Sante, Probleme. */
import * as Schema from "effect/Schema"
import { Effectif } from "./common.ts"

const anneeOuNull = (description: string) => Schema.optionalKey(Schema.NullOr(Schema.Int).annotate({ description }))
const effectif = (description: string) => Schema.optionalKey(Effectif.annotate({ description }))
const texte = (description: string) => Schema.optionalKey(Schema.String.annotate({ description }))

/** Source defects counted at ingestion, never corrected (design 1.3). Unmarked (optional) in the spec; all sent. */
/** Named `AnomaliesSchema` because the type `Anomalies` is already exported by the Dataset (same shape). */
export const AnomaliesSchema = Schema.Struct({
  annee_naissance_absente: effectif("Fiches sans année de naissance"),
  annee_naissance_min: anneeOuNull("Plus petite année présente, aberrantes comprises ; null si aucune"),
  annee_naissance_max: anneeOuNull("Plus grande année présente ; null si aucune"),
  identifiants_illisibles: effectif("Lignes ignorées parce que leur identifiant est illisible"),
  parents_pendants: effectif("Identifiants de parents référencés mais absents du fichier (distincts)"),
  robe_absente: effectif("Fiches sans robe"),
  sans_filiation: effectif("Fiches dont aucun lien (pere, mere, pere_de_mere) ne porte d'identifiant lisible"),
  slugs_non_deductibles: effectif("Fiches dont le slug diffère de celui qu'on déduit du nom"),
  textes_invalides: effectif(
    "Valeurs de texte écartées (servies comme absentes) parce qu'elles ne sont pas de l'Unicode bien formé : octets qui ne sont pas de l'UTF-8, demi-paire de substitution isolée"
  ),
  types_invalides: effectif(
    "Valeurs écartées (servies comme absentes) parce que leur type JSON n'est pas celui du champ (un nombre pour nom, une liste pour sexe…)"
  )
}).annotate({ identifier: "Anomalies", description: "Défauts de la source, comptés à l'ingestion et conservés" })

/** Provenance of the loaded extract. Unmarked (optional) in the spec; all sent. */
export const JeuDeDonnees = Schema.Struct({
  source: texte("Source à citer en cas de réutilisation"),
  producteur: texte("Producteur des données d'origine"),
  licence: texte("Régime de réutilisation"),
  lignes: effectif("Fiches chargées"),
  ingere_le: texte("Date d'ingestion (ISO 8601), à citer en cas de réutilisation"),
  empreinte_source: texte("BLAKE3 (hex) du fichier source : identifie exactement l'extraction"),
  url_modele: texte("Gabarit de l'URL de la fiche publique, avec {slug} et {id}"),
  anomalies: Schema.optionalKey(AnomaliesSchema)
}).annotate({ identifier: "JeuDeDonnees", description: "Provenance et qualité de l'extraction servie" })
export type JeuDeDonnees = typeof JeuDeDonnees.Type

export const Meta = Schema.Struct({
  version_api: Schema.String.annotate({ description: "Version de l'API" }),
  remarques: Schema.Array(Schema.String).annotate({ description: "Remarques sur les données, leur réutilisation et leurs défauts connus" }),
  jeu_de_donnees: JeuDeDonnees
}).annotate({ identifier: "Meta", description: "Provenance, licence et qualité des données" })
export type Meta = typeof Meta.Type

const carte = (description: string) =>
  Schema.optionalKey(Schema.Record(Schema.String, Schema.String).annotate({ description }))

/** The discovery document of `GET /`. Unmarked (optional) in the spec; all sent. */
export const Decouverte = Schema.Struct({
  nom: texte("Nom du service"),
  description: texte("Ce que fait le service"),
  version: texte("Version de l'API"),
  source: texte("Source des données"),
  affiliation: texte("Lien (ou absence de lien) avec le registre source"),
  documentation: texte("Chemin de la documentation"),
  openapi: texte("Chemin de la description OpenAPI 3.1"),
  licence_donnees: texte("Régime de réutilisation des données"),
  lignes: effectif("Fiches chargées"),
  endpoints: carte("Routes servies, par usage"),
  gabarits_url: carte("Gabarits d'URL (RFC 6570), par usage : de quoi construire toutes les autres URL")
}).annotate({ identifier: "Decouverte", description: "Document de découverte du service" })
export type Decouverte = typeof Decouverte.Type

export const Sante = Schema.Struct({
  statut: Schema.Literals(["ok", "indisponible"]).annotate({ description: "ok quand des données sont chargées" }),
  lignes: Effectif.annotate({ description: "Fiches chargées en mémoire ; le service n'est prêt qu'au-dessus de zéro" }),
  version: Schema.String.annotate({ description: "Version de l'API" }),
  quota: Schema.optionalKey(Schema.Literal("degraded").annotate({
    description: "Sur /readyz seulement : le magasin partagé du quota (Redis) est injoignable, les requêtes passent sans quota"
  }))
}).annotate({ identifier: "Sante", description: "Corps des sondes /healthz et /readyz" })
export type Sante = typeof Sante.Type

/** RFC 9457 problem details, with the service's extensions `parametre`, `indice`, `documentation`. */
export const Probleme = Schema.Struct({
  type: Schema.String.annotate({
    description: "URI (relative) du type de problème, vers la section de la documentation (ex. /documentation#erreur-parametre-invalide)"
  }),
  title: Schema.String.annotate({ description: "Résumé lisible, stable pour un type donné" }),
  status: Schema.Int.annotate({ description: "Statut HTTP" }),
  detail: Schema.String.annotate({ description: "Explication propre à cette occurrence" }),
  parametre: texte("Le paramètre fautif, quand l'erreur en désigne un"),
  indice: texte("Indication : valeurs admises, référentiel à consulter ou nom de paramètre le plus proche"),
  documentation: texte("URL de la documentation")
}).annotate({ identifier: "Probleme", description: "Erreur au format RFC 9457 (application/problem+json)" })
export type Probleme = typeof Probleme.Type
