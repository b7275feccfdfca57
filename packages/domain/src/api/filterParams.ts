/**
 * The shared filter parameters of `GET /v1/equides` and `GET /v1/stats/repartition`, in the
 * shape of the query engine's `FilterInput` (`query/filters.ts`): values are passed raw to it
 * (it splits commas, folds case and accents and checks each value against its reference list);
 * only `annee_min` and `annee_max` are decoded here, as integers.
 */
import { SEXES } from "../vocabulary.ts"
import { int, raw, repeatable } from "./params.ts"

const list = (what: string, referentiel: string) =>
  repeatable({
    description:
      `${what} Répétable (?p=A&p=B) ou séparé par des virgules ; insensible à la casse et aux accents ; ` +
      `valeurs du référentiel ${referentiel} (/v1/referentiels/${referentiel}). Les valeurs d'un même filtre se combinent par OU, ` +
      `les filtres différents par ET.`,
    items: { type: "string", minLength: 1 },
    expected: `une valeur du référentiel ${referentiel}`
  })

export const filterDefs = {
  race: list("Race de la fiche (libellé développé).", "races"),
  robe: list("Robe.", "robes"),
  sexe: repeatable({
    description:
      "Sexe. Répétable ou séparé par des virgules ; insensible à la casse. Valeurs : Femelle, Male, Hongre, Indeter (référentiel sexes).",
    items: { type: "string", enum: SEXES },
    expected: `une des valeurs ${SEXES.join(", ")}`
  }),
  discipline: list("Seulement les équidés portant des performances dans cette discipline.", "disciplines"),
  indice: list("Seulement les équidés portant un indice de ce code.", "codes_indice"),
  annee_naissance: repeatable({
    description: "Année de naissance. Répétable ou séparé par des virgules.",
    items: { type: "integer" },
    expected: "un entier (année)"
  }),
  statut_reproducteur: list("Statut de reproducteur déclaré par la source (indépendant des produits connus).", "statuts_reproducteur"),
  nom: raw({
    description: "Nom : chaque mot de la requête est un début de mot du nom, et tous doivent y figurer (insensible à la casse et aux accents).",
    schema: { type: "string", minLength: 1 },
    expected: "un texte non vide"
  }),
  annee_min: int({ description: "Année de naissance minimale, incluse." }),
  annee_max: int({ description: "Année de naissance maximale, incluse." }),
  avec_performances: raw({
    description:
      "true (ou 1, oui) : seulement les équidés portant au moins un indice publié ; false (ou 0, non) : seulement ceux qui n'en portent aucun " +
      "(ce qui signifie seulement qu'aucun indice n'est publié, environ les trois quarts du jeu de données).",
    schema: { type: "string", enum: ["true", "false", "1", "0", "oui", "non"] },
    expected: "true, false, 1, 0, oui ou non"
  })
} as const
