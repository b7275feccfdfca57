/**
 * The shared filter parameters of `GET /v1/equides` and `GET /v1/stats/repartition`, in the
 * shape of the query engine's `FilterInput` (`query/filters.ts`): values are passed raw to it
 * (it splits commas, folds case and accents and checks each value against its reference list);
 * only `annee_min` and `annee_max` are decoded here, as integers.
 */
import { Schema } from "effect"
import { SEXES } from "../vocabulary.ts"
import { int, IntFromString, oneOf, raw, repeatable } from "./params.ts"

/**
 * One `sexe` element: one of the four values or several separated by commas, in any letter case.
 * The server decodes with the very pattern the document shows, so they cannot disagree (an
 * accented spelling, which folding would otherwise admit, is refused).
 */
const caseFree = (value: string): string => [...value].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join("")
const sexeValue = `(?:${SEXES.map(caseFree).join("|")})`
export const SEXE_PATTERN = `^\\s*${sexeValue}\\s*(?:,\\s*${sexeValue}\\s*)*$`

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
      "Sexe. Répétable ou séparé par des virgules ; insensible à la casse (pas aux accents). Valeurs : Femelle, Male, Hongre, Indeter (référentiel sexes).",
    items: { type: "string", pattern: SEXE_PATTERN },
    item: Schema.String.check(Schema.isPattern(new RegExp(SEXE_PATTERN), { expected: `une des valeurs ${SEXES.join(", ")}` })),
    expected: `une des valeurs ${SEXES.join(", ")}`
  }),
  discipline: list("Seulement les équidés portant des performances dans cette discipline.", "disciplines"),
  indice: list("Seulement les équidés portant un indice de ce code.", "codes_indice"),
  annee_naissance: repeatable({
    description: "Année de naissance. Répétable (?annee_naissance=2010&annee_naissance=2011) ; une liste séparée par des virgules est refusée.",
    items: { type: "integer" },
    item: IntFromString,
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
  avec_performances: oneOf(["true", "false", "1", "0", "oui", "non"], {
    description:
      "true (ou 1, oui) : seulement les équidés portant au moins un indice publié ; false (ou 0, non) : seulement ceux qui n'en portent aucun " +
      "(ce qui signifie seulement qu'aucun indice n'est publié, environ les trois quarts du jeu de données). Écrit en minuscules."
  })
} as const
