/**
 * Schemas of a parent judged by its offspring: StatistiquesDescendance (one parent's offspring
 * statistics) and Reproducteurs (parents ranked by their offspring's index of one code).
 */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide, SexeSchema } from "./common.ts"
import { Reference, Resume } from "./equide.ts"
import { Pagination } from "./lists.ts"
import { Tranche } from "./reference.ts"

const valeurIndice = (description: string) => Schema.Finite.annotate({ description })

export const NaissancesAnnee = Schema.Struct({
  annee: Annee,
  nombre: Effectif.annotate({ description: "Produits nés cette année" })
}).annotate({ identifier: "NaissancesAnnee", description: "Produits nés une année donnée" })

/** One offspring among the best of a code. */
export const MeilleurProduit = Schema.Struct({
  id: IdentifiantEquide,
  nom: Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" }),
  race: Schema.String.annotate({ description: "Race de la fiche du produit (\"\" si absente)" }),
  sexe: SexeSchema,
  annee_naissance: Schema.optionalKey(Annee),
  valeur: valeurIndice("Valeur retenue de l'indice, lue comme un décimal signé (« +6 » : 6)"),
  annee: Schema.optionalKey(Schema.Int.annotate({ description: "Année de l'indice retenu (absente si la source n'en donne pas)" }))
}).annotate({ identifier: "MeilleurProduit", description: "Un des meilleurs produits pour un code d'indice" })
export type MeilleurProduit = typeof MeilleurProduit.Type

/** The offspring's values of one index code. */
export const IndiceDescendance = Schema.Struct({
  code: Schema.String.annotate({ description: "Code de l'indice (référentiel codes_indice)" }),
  discipline: Schema.optionalKey(
    Schema.String.annotate({ description: "Discipline sous laquelle ce code est le plus souvent publié dans le jeu de données" })
  ),
  produits: Effectif.annotate({ description: "Produits ayant une valeur lisible de ce code" }),
  moyenne: valeurIndice("Moyenne des valeurs, arrondie au centième"),
  mediane: valeurIndice("Valeur du milieu (moyenne des deux du milieu pour un nombre pair), arrondie au centième"),
  maximum: valeurIndice("Plus grande valeur"),
  meilleurs: Schema.Array(MeilleurProduit).annotate({
    description: "Les 5 meilleurs produits : valeur décroissante, puis nom (sans casse ni accents), puis id"
  })
}).annotate({ identifier: "IndiceDescendance", description: "Valeurs d'un code d'indice chez les produits" })
export type IndiceDescendance = typeof IndiceDescendance.Type

export const StatistiquesDescendance = Schema.Struct({
  parent: Reference.annotateKey({ description: "L'équidé dont on décrit les produits" }),
  produits: Effectif.annotate({ description: "Fiches ayant cet équidé pour père ou pour mère (nombre_de_descendants)" }),
  petits_produits: Effectif.annotate({ description: "Fiches distinctes ayant un de ces produits pour père ou pour mère" }),
  par_annee: Schema.Array(NaissancesAnnee).annotate({ description: "Produits par année de naissance, chronologique" }),
  sans_annee: Effectif.annotate({ description: "Produits sans année de naissance" }),
  par_sexe: Schema.Array(Tranche).annotate({ description: "Produits par sexe, du plus au moins nombreux, puis par valeur" }),
  par_race: Schema.Array(Tranche).annotate({
    description: "Produits par race de leur fiche, du plus au moins nombreux, puis par valeur (produits sans race non comptés)"
  }),
  avec_indices: Effectif.annotate({ description: "Produits ayant une valeur lisible d'au moins un code d'indice" }),
  indices: Schema.Array(IndiceDescendance).annotate({
    description: "Un élément par code d'indice porté par au moins un produit : produits décroissants, puis code"
  })
}).annotate({ identifier: "StatistiquesDescendance", description: "Statistiques des produits directs d'un équidé" })
export type StatistiquesDescendance = typeof StatistiquesDescendance.Type

export const Reproducteur = Schema.Struct({
  parent: Resume.annotateKey({ description: "Le reproducteur" }),
  produits: Effectif.annotate({ description: "Produits retenus (années demandées) ayant une valeur lisible du code" }),
  moyenne: valeurIndice("Moyenne de leurs valeurs, arrondie au centième"),
  mediane: valeurIndice("Valeur du milieu (moyenne des deux du milieu pour un nombre pair), arrondie au centième"),
  maximum: valeurIndice("Plus grande valeur")
}).annotate({ identifier: "Reproducteur", description: "Un reproducteur et l'indice de ses produits" })
export type Reproducteur = typeof Reproducteur.Type

export const Reproducteurs = Schema.Struct({
  code: Schema.String.annotate({ description: "Code d'indice classé, tel qu'écrit dans le référentiel codes_indice" }),
  donnees: Schema.Array(Reproducteur).annotate({
    description: "Moyenne décroissante, puis nombre de produits décroissant, puis nom (sans casse ni accents), puis id"
  }),
  pagination: Pagination
}).annotate({ identifier: "Reproducteurs", description: "Reproducteurs classés par l'indice de leurs produits" })
export type Reproducteurs = typeof Reproducteurs.Type
