/**
 * Schemas of the whole registry's genetics (issue 27, design §6): Genetique (one horse over all its
 * known generations, against its breed's reference population) and StatsGenetique (a breed's
 * inbreeding by birth year and its reference population's founders and ancestors).
 */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide, SexeSchema } from "./common.ts"

const Coefficient = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
const NonNegative = Schema.Number.check(Schema.isGreaterThanOrEqualTo(0))
const Generations = Effectif

export const ReferenceRace = Schema.Struct({
  race: Schema.String.annotate({ description: "La race telle que l'écrit la fiche (la référence regroupe les graphies qui se replient de même)" }),
  annee_min: Annee.annotate({ description: "Première année de naissance de la population de référence (Y − 4)" }),
  annee_max: Annee.annotate({ description: "Dernière année : Y, la plus récente de la race qui ne dépasse pas l'année d'ingere_le" }),
  effectif: Effectif.annotate({ description: "Fiches de la population de référence" }),
  consanguinite_moyenne: Coefficient.annotate({ description: "F moyen de la population de référence" })
}).annotate({ identifier: "ReferenceRace", description: "La population de référence de la race de l'équidé" })

export const Genetique = Schema.Struct({
  id: IdentifiantEquide,
  consanguinite: Coefficient.annotate({ description: "F de Wright sur toutes les générations connues (7 chiffres significatifs)" }),
  generations_equivalentes: NonNegative.annotate({ description: "t : Σ sur chaque apparition d'un ancêtre connu de (1/2)^g (Maignel et al. 1996)" }),
  generations_completes: Generations.annotate({ description: "La plus grande génération g dont les 2^g ancêtres sont tous connus" }),
  generations_max: Generations.annotate({ description: "Génération de l'ancêtre connu le plus lointain (plus longue lignée)" }),
  accroissement_individuel: Schema.NullOr(Coefficient).annotate({
    description: "ΔF_i = 1 − (1 − F_i)^(1/(t_i − 1)) (Gutiérrez et al. 2008) ; null quand t ≤ 1"
  }),
  parente_moyenne: Schema.NullOr(Coefficient).annotate({
    description: "Moyenne des coefficients de parenté f(i, j) avec les fiches j de la population de référence de sa race, f(i, i) = (1 + F_i)/2 ; null sans population de référence"
  }),
  reference: Schema.NullOr(ReferenceRace)
}).annotate({ identifier: "Genetique", description: "La génétique d'un équidé sur toutes ses générations connues" })
export type Genetique = typeof Genetique.Type

export const AnneeGenetique = Schema.Struct({
  annee: Annee,
  effectif: Effectif,
  consanguinite_moyenne: Coefficient,
  consanguins: Effectif.annotate({ description: "Fiches de F > 0" }),
  au_moins_6_25: Effectif.annotate({ description: "Fiches de F ≥ 1/16" }),
  au_moins_12_5: Effectif.annotate({ description: "Fiches de F ≥ 1/8" }),
  generations_equivalentes_moyennes: NonNegative,
  accroissement_moyen: Schema.NullOr(Coefficient).annotate({ description: "ΔF moyen sur les fiches de t > 1 ; null s'il n'y en a pas" }),
  taille_efficace: Schema.NullOr(NonNegative).annotate({ description: "Ne = 1 / (2 · ΔF moyen) ; null quand ce ΔF moyen est nul ou non défini" })
}).annotate({ identifier: "AnneeGenetique", description: "Consanguinité des fiches nées une année" })

export const AncetrePrincipal = Schema.Struct({
  id: IdentifiantEquide,
  nom: Schema.String,
  race: Schema.String,
  sexe: SexeSchema,
  annee_naissance: Schema.NullOr(Annee),
  contribution: Coefficient.annotate({ description: "Contribution marginale p_k à la population de référence (Boichard et al. 1997)" })
}).annotate({ identifier: "AncetrePrincipal", description: "Un ancêtre retenu, dans l'ordre du choix" })

export const PopulationReference = Schema.Struct({
  annee_min: Annee,
  annee_max: Annee,
  effectif: Effectif,
  fondateurs_efficaces: NonNegative.annotate({ description: "f_e = 1 / Σ q_k² sur les fondateurs (fantômes compris)" }),
  ancetres_efficaces: Schema.NullOr(NonNegative).annotate({ description: "f_a = 1 / Σ p_k² sur les ancêtres retenus ; null sans ancêtre" }),
  ancetres_retenus: Effectif.annotate({ description: "Ancêtres retenus : au plus 1 000, ou jusqu'à ce que la part non expliquée passe sous 0,1 %" }),
  contribution_expliquee: Coefficient.annotate({ description: "Σ p_k des ancêtres retenus" }),
  intervalle_generation: Schema.NullOr(Schema.Number).annotate({
    description:
      "Moyenne de (naissance de l'enfant − naissance du parent) sur les paires (membre, parent connu) dont les deux années sont connues ; " +
      "négative seulement si la source donne des parents nés après leurs enfants"
  }),
  principaux_ancetres: Schema.Array(AncetrePrincipal).annotate({ description: "Les 20 premiers ancêtres retenus" })
}).annotate({ identifier: "PopulationReference", description: "Fondateurs et ancêtres de la population de référence" })

export const StatsGenetique = Schema.Struct({
  race: Schema.NullOr(Schema.String).annotate({ description: "La race demandée telle que l'écrivent ses fiches ; null : tout l'extrait" }),
  annees: Schema.Array(AnneeGenetique).annotate({ description: "Chaque année de naissance de la sélection, croissantes" }),
  reference: Schema.NullOr(PopulationReference)
}).annotate({ identifier: "StatsGenetique", description: "Consanguinité par année de naissance et diversité de la population de référence" })
export type StatsGenetique = typeof StatsGenetique.Type
