/**
 * The shared filter parameters of `GET /v1/equides` and `GET /v1/stats/repartition`, in the
 * shape of the query engine's `FilterInput` (`query/filters.ts`): values are passed raw to it
 * (it splits commas, folds case and accents and checks each value against its reference list);
 * only `annee_min` and `annee_max` are decoded here, as integers.
 */
import * as Schema from "effect/Schema"
import { foldValue } from "../text/fold.ts"
import { SEXES } from "../vocabulary.ts"
import { int, IntFromString, oneOf, raw, repeatable } from "./params.ts"

/**
 * One `sexe` element: one of the four values or several separated by commas, in any letter case
 * and with or without accents, as the query engine folds them (`Mâle`, `FEMELLE`, `Indéter`). The
 * server decodes with the very pattern the document shows, so they cannot disagree: a letter is
 * any character up to U+017F (Latin-1 and Latin Extended-A, every precomposed accent of French
 * and its neighbours) that `foldValue` turns into it, followed by any combining accents
 * (U+0300–U+036F, a decomposed spelling); wider Unicode is refused rather than described.
 */
const LETTER_LIMIT = 0x180
const MARKS = "[\\u0300-\\u036f]*"

/** The characters below LETTER_LIMIT that fold to `letter`, as a character class of ranges. */
const letterClass = (letter: string): string => {
  const codes: Array<number> = []
  for (let code = 0; code < LETTER_LIMIT; code++) if (foldValue(String.fromCharCode(code)) === letter) codes.push(code)
  let out = ""
  for (let i = 0; i < codes.length;) {
    let j = i
    while (j + 1 < codes.length && codes[j + 1] === codes[j] + 1) j++
    out += j - i >= 2
      ? `${String.fromCharCode(codes[i])}-${String.fromCharCode(codes[j])}`
      : String.fromCharCode(...codes.slice(i, j + 1))
    i = j + 1
  }
  return `[${out}]`
}

const sexeValue = `(?:${SEXES.map((sexe) => [...foldValue(sexe)].map((letter) => letterClass(letter) + MARKS).join("")).join("|")})`
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
      "Sexe. Répétable (?sexe=Male&sexe=Hongre) ou séparé par des virgules ; insensible à la casse et aux accents (Mâle, FEMELLE, Indéter : " +
      "lettres accentuées latines jusqu'à U+017F ou accents combinants). Valeurs : Femelle, Male, Hongre, Indeter (référentiel sexes).",
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
