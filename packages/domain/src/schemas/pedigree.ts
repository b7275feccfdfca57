/** Schemas of genealogy: Produit and Descendance (direct offspring), Noeud and Pedigree (ancestry). */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide, SexeSchema } from "./common.ts"
import { Reference } from "./equide.ts"
import type { Sexe } from "../vocabulary.ts"

/** One direct offspring, described like a pedigree node. */
export const Produit = Schema.Struct({
  id: IdentifiantEquide,
  nom: Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" }),
  race: Schema.String.annotate({ description: "Race de la fiche du produit (\"\" si absente)" }),
  sexe: SexeSchema,
  fiche_disponible: Schema.Literal(true).annotate({ description: "Toujours true : un produit est une fiche du jeu de données" }),
  annee_naissance: Schema.optionalKey(Annee)
}).annotate({ identifier: "Produit", description: "Produit direct (fiche ayant l'équidé pour père ou pour mère)" })
export type Produit = typeof Produit.Type

export const Descendance = Schema.Struct({
  parent: Reference.annotateKey({ description: "L'équidé dont on liste les produits" }),
  total: Effectif.annotate({ description: "Nombre de produits directs connus, avant découpage" }),
  limite: Schema.Int.annotate({ description: "Taille de page appliquée (1 à 100)" }),
  offset: Effectif.annotate({ description: "Rang du premier produit renvoyé" }),
  donnees: Schema.Array(Produit).annotate({
    description: "Produits, par année de naissance croissante (années absentes en dernier), puis nom, puis ordre du fichier"
  })
}).annotate({ identifier: "Descendance", description: "Produits directs d'un équidé, paginés" })
export type Descendance = typeof Descendance.Type

/**
 * A pedigree node. Every field is optional in the spec; the service always sends `id`, `nom`,
 * `race` (the node's own record: `""` when absent), `sexe` and `generation`, and omits
 * `annee_naissance` when absent and `pere`/`mere` where the branch stops.
 */
export interface Noeud {
  readonly id?: string
  readonly nom?: string
  readonly race?: string
  readonly sexe?: Sexe
  readonly annee_naissance?: number
  readonly generation?: number
  readonly pere?: Noeud
  readonly mere?: Noeud
}

export const Noeud: Schema.Codec<Noeud> = Schema.Struct({
  id: Schema.optionalKey(IdentifiantEquide),
  nom: Schema.optionalKey(Schema.String.annotate({ description: "Nom" })),
  race: Schema.optionalKey(Schema.String.annotate({ description: "Race de la fiche de ce nœud" })),
  sexe: Schema.optionalKey(SexeSchema),
  annee_naissance: Schema.optionalKey(Annee),
  generation: Schema.optionalKey(
    Effectif.annotate({ description: "0 pour le sujet, 1 pour ses parents, 2 pour ses grands-parents…" })
  ),
  pere: Schema.optionalKey(Schema.suspend((): Schema.Codec<Noeud> => Noeud)).annotateKey({
    description: "Père ; absent quand il n'est pas connu ou que sa fiche manque (la branche s'arrête)"
  }),
  mere: Schema.optionalKey(Schema.suspend((): Schema.Codec<Noeud> => Noeud)).annotateKey({
    description: "Mère ; absente quand elle n'est pas connue ou que sa fiche manque (la branche s'arrête)"
  })
}).annotate({ identifier: "Noeud", description: "Nœud d'un pedigree" })

export const Pedigree = Schema.Struct({
  generations: Effectif.annotate({ description: "Profondeur demandée (0 à 8)" }),
  noeuds: Effectif.annotate({ description: "Ancêtres effectivement connus, sujet compris" }),
  noeuds_theoriques: Effectif.annotate({
    description: "Nœuds d'un pedigree complet à cette profondeur : 2^(generations+1) − 1 ; l'écart avec noeuds mesure les lacunes"
  }),
  arbre: Noeud.annotateKey({ description: "Arbre dont la racine est le sujet" })
}).annotate({ identifier: "Pedigree", description: "Arbre des ancêtres d'un équidé" })
export type Pedigree = typeof Pedigree.Type
