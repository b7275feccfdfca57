/**
 * Schemas of inbreeding: Consanguinite (a horse's coefficient and its explanation) and Accouplement
 * (a planned mating), with their parts AncetreCommun and Completude.
 */
import * as Schema from "effect/Schema"
import { Effectif, IdentifiantEquide } from "./common.ts"

const Generation = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

const Coefficient = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))

export const AncetreCommun = Schema.Struct({
  id: IdentifiantEquide.annotate({
    description: "Identifiant de l'ancêtre ; toujours présent : un parent sans fiche compte comme un individu distinct à chaque apparition et n'est jamais commun"
  }),
  nom: Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" }),
  positions_pere: Schema.Array(Generation).annotate({
    description: "Génération (1 : les parents du poulain) de chaque chemin qui mène à l'ancêtre par le père, croissantes"
  }),
  positions_mere: Schema.Array(Generation).annotate({ description: "La même chose par la mère" }),
  chemins: Effectif.annotate({
    description: "Paires de chemins père…ancêtre et mère…ancêtre n'ayant que l'ancêtre en commun (celles qui comptent dans F)"
  }),
  contribution: Coefficient.annotate({ description: "Part de F due à cet ancêtre : Σ (1/2)^(n1+n2+1) · (1 + F_A) sur ces paires" }),
  coefficient_ancetre: Coefficient.annotate({ description: "F_A : consanguinité de l'ancêtre, calculée dans la même coupe" })
}).annotate({ identifier: "AncetreCommun", description: "Un ancêtre commun au côté du père et au côté de la mère, et sa part de F" })
export type AncetreCommun = typeof AncetreCommun.Type

export const Completude = Schema.Struct({
  par_generation: Schema.Array(Coefficient).annotate({
    description: "Part des emplacements connus à chaque génération g = 1…N : emplacements connus / 2^g"
  }),
  indice_maccluer: Coefficient.annotate({
    description: "Indice de MacCluer : moyenne harmonique des complétudes moyennes du côté du père et du côté de la mère sur les N générations"
  }),
  generations_equivalentes: Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
    description: "Générations complètes équivalentes : somme des parts par génération"
  })
}).annotate({ identifier: "Completude", description: "Complétude d'un pedigree sur N générations" })
export type Completude = typeof Completude.Type

const AncetresCommuns = Schema.Array(AncetreCommun).annotate({
  description: "Ancêtres communs, par contribution décroissante, puis par nom, puis par identifiant"
})

export const Consanguinite = Schema.Struct({
  id: IdentifiantEquide,
  nom: Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" }),
  generations: Generation.annotate({ description: "Profondeur de la coupe (1 à 12 ; les parents sont la génération 1)" }),
  coefficient: Coefficient.annotate({ description: "Coefficient de consanguinité de Wright F, dans la coupe" }),
  ancetres_communs: AncetresCommuns,
  completude: Completude,
  ancetres: Schema.Struct({
    emplacements: Effectif.annotate({ description: "Emplacements du pedigree sur N générations : 2^(N+1) − 2" }),
    connus: Effectif.annotate({ description: "Emplacements connus (fiche présente ou parent nommé sans fiche)" }),
    distincts: Effectif.annotate({
      description: "Individus distincts parmi les emplacements connus (un parent sans fiche compte à chaque apparition)"
    })
  }).annotate({ identifier: "AncetresDenombres", description: "Dénombrement des ancêtres dans la coupe" }),
  methode: Schema.String.annotate({ description: "Méthode de calcul" }),
  avertissement: Schema.String.annotate({ description: "Limites de l'interprétation" })
}).annotate({ identifier: "Consanguinite", description: "Consanguinité d'un équidé et son explication" })
export type Consanguinite = typeof Consanguinite.Type

const Parent = Schema.Struct({ id: IdentifiantEquide, nom: Schema.String.annotate({ description: "Nom" }) }).annotate({
  identifier: "ParentAccouplement",
  description: "Un parent de l'accouplement envisagé"
})

export const Accouplement = Schema.Struct({
  pere: Parent,
  mere: Parent,
  generations: Generation.annotate({ description: "Profondeur de la coupe, comptée depuis le poulain (1 à 12)" }),
  coefficient: Coefficient.annotate({ description: "F du poulain que donnerait l'accouplement : la parenté f(père, mère)" }),
  coefficient_de_parente: Coefficient.annotate({
    description: "Coefficient de parenté de Wright R entre père et mère : 2·f(père, mère) / √((1 + F_père)(1 + F_mère))"
  }),
  ancetres_communs: AncetresCommuns,
  completude: Schema.Struct({
    pere: Completude.annotateKey({ description: "Complétude du pedigree du père dans la coupe (N − 1 générations)" }),
    mere: Completude.annotateKey({ description: "Complétude du pedigree de la mère dans la coupe (N − 1 générations)" })
  }).annotate({ identifier: "CompletudeParents", description: "Complétude des pedigrees des deux parents" })
}).annotate({ identifier: "Accouplement", description: "Accouplement envisagé : consanguinité du poulain et parenté des parents" })
export type Accouplement = typeof Accouplement.Type
