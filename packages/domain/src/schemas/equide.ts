/** Schemas of one equid: Equide (full record), Resume (list row), Reference (link), Performance. */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide, SexeSchema } from "./common.ts"

/** One published index of a performance. Every field is optional (spec: unmarked). */
export const IndicePerformance = Schema.Struct({
  annee: Schema.optionalKey(Schema.Int.annotate({ description: "Année de l'indice" })),
  appreciation: Schema.optionalKey(Schema.String.annotate({ description: "Appréciation (ex. indice-satisfaisant)" })),
  code: Schema.optionalKey(Schema.String.annotate({ description: "Code de l'indice (ex. BTR, ISO, ITR)" })),
  coefficient: Schema.optionalKey(Schema.Finite.annotate({ description: "Coefficient de détermination, entre 0 et 1" })),
  valeur: Schema.optionalKey(Schema.String.annotate({ description: "Valeur signée, écrite en texte (ex. +59, 115)" }))
}).annotate({ identifier: "IndicePerformance", description: "Un indice publié" })
export type IndicePerformance = typeof IndicePerformance.Type

export const Performance = Schema.Struct({
  discipline: Schema.optionalKey(Schema.String.annotate({ description: "Discipline (ex. TROT COURSE)" })),
  texte: Schema.optionalKey(Schema.String.annotate({ description: "Rendu textuel des indices, tel que donné par la source" })),
  indices: Schema.optionalKey(Schema.Array(IndicePerformance))
}).annotate({ identifier: "Performance", description: "Indices publiés dans une discipline" })
export type Performance = typeof Performance.Type

/**
 * A link to another equid. `race` is the breed declared on the parentage link (nomenclature
 * `races_lien`), not the linked record's. A dangling link carries `nom` and `race`, no `id`, and
 * `fiche_disponible: false`.
 */
export const Reference = Schema.Struct({
  id: Schema.optionalKey(IdentifiantEquide),
  nom: Schema.optionalKey(Schema.String.annotate({ description: "Nom porté par le lien" })),
  race: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Race déclarée sur le lien de filiation (code abrégé, référentiel races_lien), et non celle de la fiche du parent ; refusée par le filtre race"
    })
  ),
  fiche_disponible: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "false quand la fiche du parent est absente du jeu de données (pas d'id alors)" })
  )
}).annotate({ identifier: "Reference", description: "Lien vers un autre équidé (parent)" })
export type Reference = typeof Reference.Type

const nom = Schema.String.annotate({ description: "Nom (\"\" si la source n'en donne pas)" })
const race = Schema.String.annotate({
  description: "Race de la fiche, écrite comme dans la source (libellé développé, parfois pollué par un temps de course ; \"\" si absente)"
})
const robe = Schema.String.annotate({ description: "Robe (ex. Bai, Alezan)" })

/** Summary row of the lists (default view). */
export const Resume = Schema.Struct({
  id: IdentifiantEquide,
  nom,
  race,
  sexe: SexeSchema,
  annee_naissance: Schema.optionalKey(Annee),
  robe: Schema.optionalKey(robe)
}).annotate({ identifier: "Resume", description: "Résumé d'un équidé (vue par défaut des listes)" })
export type Resume = typeof Resume.Type

/** The full record. */
export const Equide = Schema.Struct({
  id: IdentifiantEquide,
  nom,
  slug: Schema.String.annotate({ description: "Slug tiré du nom, tel que donné par la source (\"\" si absent)" }),
  url: Schema.String.annotate({ description: "URL de la fiche publique d'origine, reconstruite à partir du slug et de l'id" }),
  race,
  sexe: SexeSchema,
  nombre_de_descendants: Effectif.annotate({ description: "Nombre de fiches ayant cet équidé pour père ou pour mère" }),
  annee_naissance: Schema.optionalKey(Annee),
  robe: Schema.optionalKey(robe),
  filiation_texte: Schema.optionalKey(Schema.String.annotate({ description: "Filiation telle que rédigée par la source" })),
  pere: Schema.optionalKey(Reference).annotateKey({ description: "Père" }),
  mere: Schema.optionalKey(Reference).annotateKey({ description: "Mère" }),
  pere_de_mere: Schema.optionalKey(Reference).annotateKey({ description: "Père de la mère" }),
  performances: Schema.optionalKey(Schema.Array(Performance))
}).annotate({ identifier: "Equide", description: "Fiche complète d'un équidé" })
export type Equide = typeof Equide.Type
