/**
 * Hints for a mistyped parameter name (design 3): the nearest admitted name, by prefix or by
 * Damerau-Levenshtein distance ≤ 2, then the admitted list.
 */
import { editDistance, quote } from "../query/errors.ts"

const MAX_DISTANCE = 2

/** The admitted name closest to `name`, or undefined when none is close enough. */
export const nearestName = (name: string, admitted: ReadonlyArray<string>): string | undefined => {
  const lower = name.toLowerCase()
  let best: string | undefined
  let bestScore = Number.POSITIVE_INFINITY
  for (const candidate of admitted) {
    const c = candidate.toLowerCase()
    // A prefix either way ranks before any edit distance; among prefixes, the closest length wins.
    const score = lower.length > 0 && (c.startsWith(lower) || lower.startsWith(c))
      ? Math.abs(c.length - lower.length) / 1000
      : editDistance(lower, c, MAX_DISTANCE)
    if (score < bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return bestScore <= MAX_DISTANCE ? best : undefined
}

/** `paramètre le plus proche : « limite » ; paramètres admis : …` */
export const unknownParameterHint = (name: string, admitted: ReadonlyArray<string>): string => {
  if (admitted.length === 0) return "cette route n'admet aucun paramètre de requête"
  const nearest = nearestName(name, admitted)
  const list = `paramètres admis : ${admitted.join(", ")}`
  return nearest === undefined ? list : `paramètre le plus proche : ${quote(nearest)} ; ${list}`
}

/** `valeurs admises : a, b, c` */
export const admittedValuesHint = (values: ReadonlyArray<string>): string => `valeurs admises : ${values.join(", ")}`
