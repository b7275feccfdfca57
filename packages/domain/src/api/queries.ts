/**
 * The query parameters of the routes whose executions cross to the query workers (`answers.ts`
 * `Execution` types its queries by them): kept apart from the groups, which import the answers for
 * their documentation examples, so that no module imports another in a circle.
 */
import { DEFAULT_LIMITE, DEFAULT_TRI, MAX_LIMITE, MAX_OFFSET, MIN_LIMITE } from "../query/paginate.ts"
import {
  DEFAULT_REPARTITION_DIMENSION,
  DEFAULT_REPARTITION_LIMITE,
  MAX_REPARTITION_LIMITE,
  MIN_REPARTITION_LIMITE
} from "../query/repartition.ts"
import {
  PRODUITS_MIN_DEFAUT,
  PRODUITS_MIN_MAX,
  PRODUITS_MIN_MIN,
  REPRODUCTEURS_SEXE_DEFAUT,
  REPRODUCTEURS_SEXES
} from "../query/reproducteurs.ts"
import { DEFAULT_SUGGEST_LIMITE, MAX_SUGGEST_LIMITE, MIN_SUGGEST_LIMITE } from "../query/suggest.ts"
import { REPARTITION_DIMENSIONS, TRIS, VUES } from "../vocabulary.ts"
import { filterDefs } from "./filterParams.ts"
import { clampedInt, decimal, int, oneOf, params, raw, requiredText } from "./params.ts"

/** A page of a ranked or listed selection: `limite` rows from `offset`, as the list pages them. */
const pageParams = {
  limite: int({ minimum: MIN_LIMITE, maximum: MAX_LIMITE, default: DEFAULT_LIMITE, description: "Taille de page ; hors bornes : 400." }),
  offset: int({
    minimum: 0,
    maximum: MAX_OFFSET,
    default: 0,
    description: "Rang de la première ligne (profondeur de pagination) ; au-delà : 400."
  })
}

export const listQuery = params("query", {
  ...filterDefs,
  tri: oneOf(TRIS, {
    default: DEFAULT_TRI,
    description:
      "Ordre : naturel (ordre du fichier source), nom, annee ; préfixe - pour inverser. Les fiches sans année de naissance sont toujours en dernier, dans les deux sens."
  }),
  vue: oneOf(VUES, { default: "resume", description: "resume (Resume, par défaut) ou complet (Equide)." }),
  ...pageParams
})

export const searchQuery = params("query", {
  q: requiredText({
    description:
      "Début de nom, obligatoire et non vide ; insensible à la casse et aux accents. Les espaces comptent : chaque mot déjà tapé doit figurer dans le nom, seul le dernier est un début de mot."
  }),
  limite: clampedInt({
    minimum: MIN_SUGGEST_LIMITE,
    maximum: MAX_SUGGEST_LIMITE,
    default: DEFAULT_SUGGEST_LIMITE,
    description: "Nombre maximal de suggestions."
  }),
  // The list's filter, same values and refusals: a form choosing a mare asks for `Femelle` only.
  sexe: filterDefs.sexe
})

export const repartitionQuery = params("query", {
  ...filterDefs,
  // Taken as any string and checked by the query, whose refusal suggests the nearest dimension.
  dimension: raw({
    schema: { type: "string", enum: REPARTITION_DIMENSIONS, default: DEFAULT_REPARTITION_DIMENSION },
    description: "Dimension de la répartition (statut_reproducteur en plus de celles de la spécification).",
    expected: `une des valeurs ${REPARTITION_DIMENSIONS.join(", ")}`
  }),
  limite: clampedInt({
    minimum: MIN_REPARTITION_LIMITE,
    maximum: MAX_REPARTITION_LIMITE,
    default: DEFAULT_REPARTITION_LIMITE,
    description: "Nombre maximal de tranches, les plus nombreuses d'abord ; sans effet sur annee_naissance, renvoyée en entier."
  })
})

export const reproducteursQuery = params("query", {
  code: requiredText({
    description:
      "Code d'indice à classer (référentiel codes_indice, /v1/referentiels/codes_indice), insensible à la casse et aux accents ; un seul code. Obligatoire."
  }),
  sexe: oneOf(REPRODUCTEURS_SEXES, {
    default: REPRODUCTEURS_SEXE_DEFAUT,
    description: "Sexe de la fiche du reproducteur : Male (pères, par défaut) ou Femelle (mères)."
  }),
  race: filterDefs.race,
  annee_min: int({ description: "Seuls comptent les produits nés cette année ou après ; les produits sans année sont alors écartés." }),
  annee_max: int({ description: "Seuls comptent les produits nés cette année ou avant ; les produits sans année sont alors écartés." }),
  produits_min: int({
    minimum: PRODUITS_MIN_MIN,
    maximum: PRODUITS_MIN_MAX,
    default: PRODUITS_MIN_DEFAUT,
    description: "Nombre minimal de produits retenus ayant une valeur du code ; hors bornes : 400."
  }),
  ...pageParams
})

export const genetiqueQuery = params("query", {
  race: filterDefs.race,
  annee_min: filterDefs.annee_min,
  annee_max: filterDefs.annee_max
})

/** The list's filters but `sexe` (the candidates are the stallions: `sexe` is refused as not admitted). */
const { sexe: _sexe, ...candidateFilters } = filterDefs

export const etalonsQuery = params("query", {
  mere: requiredText({
    description: "Identifiant de la jument (22 caractères base64url). Inconnu ou mal formé : 404 nommant le paramètre ; fiche d'un autre sexe que Femelle : 400."
  }),
  ...candidateFilters,
  coefficient_max: decimal({
    minimum: 0,
    maximum: 1,
    description: "Seulement les étalons dont le poulain aurait un coefficient inférieur ou égal à cette valeur ; hors de 0..1 : 400."
  }),
  ...pageParams
})
