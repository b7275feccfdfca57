/** Schemas of the list routes: Pagination, PageEquides (both views) and Suggestions. */
import * as Schema from "effect/Schema"
import { Annee, Effectif, IdentifiantEquide, SexeSchema } from "./common.ts"
import { Equide, Resume } from "./equide.ts"

export const Pagination = Schema.Struct({
  total: Effectif.annotate({ description: "Lignes retenues par les filtres, avant découpage" }),
  limite: Schema.Int.annotate({ description: "Taille de page (1 à 100)" }),
  offset: Effectif.annotate({ description: "Rang de la première ligne (0 à 10000)" }),
  suivant: Schema.optionalKey(
    Schema.NullOr(Schema.String).annotate({
      description:
        "URI relative (chemin et requête, filtres conservés) de la page suivante ; null sur la dernière page ou quand la profondeur maximale est atteinte"
    })
  ),
  precedent: Schema.optionalKey(
    Schema.NullOr(Schema.String).annotate({ description: "URI relative de la page précédente ; null sur la première page" })
  ),
  note: Schema.optionalKey(
    Schema.String.annotate({
      description: "Présente seulement quand la sélection dépasse la profondeur de pagination : la suite n'est pas accessible par cette route"
    })
  )
}).annotate({ identifier: "Pagination", description: "Position d'une page dans la sélection" })
export type Pagination = typeof Pagination.Type

/** A page of the default view (`vue=resume`). */
export const PageResumes = Schema.Struct({
  donnees: Schema.Array(Resume).annotate({ description: "Résumés (vue=resume, par défaut)" }),
  pagination: Pagination
}).annotate({ identifier: "PageResumes", description: "Page d'équidés, vue résumée (vue=resume, par défaut)" })
export type PageResumes = typeof PageResumes.Type

/** A page of the full view (`vue=complet`). */
export const PageEquidesComplets = Schema.Struct({
  donnees: Schema.Array(Equide).annotate({ description: "Fiches complètes (vue=complet)" }),
  pagination: Pagination
}).annotate({ identifier: "PageEquidesComplets", description: "Page d'équidés, vue complète (vue=complet)" })
export type PageEquidesComplets = typeof PageEquidesComplets.Type

/**
 * The list route's success: a page of either view. The full view comes FIRST on purpose: a Struct
 * encoder drops unknown keys, so a full page tried against `PageResumes` first would be encoded
 * as summaries; a summary page fails `PageEquidesComplets` (no `slug`, `url`…) and falls through.
 */
export const PageEquides = Schema.Union([PageEquidesComplets, PageResumes]).annotate({
  identifier: "PageEquides",
  description: "Page d'équidés : donnees contient des Resume par défaut, des Equide quand vue=complet"
})
export type PageEquides = typeof PageEquides.Type

/** One name suggestion. Fields are unmarked (optional) in the spec; `annee_naissance` is omitted when absent. */
export const Suggestion = Schema.Struct({
  id: Schema.optionalKey(IdentifiantEquide),
  nom: Schema.optionalKey(Schema.String.annotate({ description: "Nom" })),
  race: Schema.optionalKey(Schema.String.annotate({ description: "Race de la fiche" })),
  sexe: Schema.optionalKey(SexeSchema),
  annee_naissance: Schema.optionalKey(Annee),
  score: Schema.optionalKey(
    Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })).annotate({
      description: "Pertinence dans [0, 1] : 1 quand le dernier mot correspond à un mot entier du nom"
    })
  )
}).annotate({ identifier: "Suggestion", description: "Une suggestion de nom" })
export type Suggestion = typeof Suggestion.Type

export const Suggestions = Schema.Struct({
  q: Schema.String.annotate({ description: "La requête telle que reçue (les frappes peuvent arriver dans le désordre)" }),
  limite: Schema.Int.annotate({ description: "Nombre maximal de résultats (1 à 100)" }),
  resultats: Schema.Array(Suggestion).annotate({ description: "Du plus au moins pertinent" })
}).annotate({ identifier: "Suggestions", description: "Suggestions de noms pour une saisie" })
export type Suggestions = typeof Suggestions.Type
