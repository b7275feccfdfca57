/** Schemas of the stallions ranked for a mare (issue 28): Etalons, a page of EtalonCandidat. */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide } from "./common.ts"
import { Resume } from "./equide.ts"
import { Pagination } from "./lists.ts"

const Coefficient = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))

export const EtalonCandidat = Schema.Struct({
  etalon: Resume,
  coefficient: Coefficient.annotate({
    description: "F du poulain sur toutes les générations connues : la parenté f(étalon, jument), méthode indirecte de Colleau"
  }),
  parente_moyenne: Schema.NullOr(Coefficient).annotate({
    description:
      "Parenté moyenne de l'étalon avec la population de référence de la race de la jument (7 chiffres significatifs) ; null quand la jument n'a pas de race " +
      "ou sa race pas de population de référence"
  }),
  produits: Effectif.annotate({ description: "Produits connus de l'étalon (fiches qui le donnent pour père ou mère)" })
}).annotate({ identifier: "EtalonCandidat", description: "Un étalon candidat et le F du poulain qu'il donnerait" })
export type EtalonCandidat = typeof EtalonCandidat.Type

export const Etalons = Schema.Struct({
  mere: Schema.Struct({
    id: IdentifiantEquide,
    nom: Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" }),
    race: Schema.String.annotate({ description: "Race de la fiche (\"\" si la source n'en donne pas)" }),
    annee_naissance: Schema.NullOr(Annee)
  }).annotate({ identifier: "JumentAccouplement", description: "La jument" }),
  donnees: Schema.Array(EtalonCandidat).annotate({
    description: "Étalons candidats par coefficient croissant, puis produits décroissants, puis nom, puis identifiant"
  }),
  pagination: Pagination
}).annotate({ identifier: "Etalons", description: "Étalons classés pour une jument par le F de leur poulain" })
export type Etalons = typeof Etalons.Type
