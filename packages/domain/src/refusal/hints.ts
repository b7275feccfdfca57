/**
 * The one hint engine of refusals (design 3): for a mistyped parameter name, the nearest admitted
 * name (by prefix or Damerau-Levenshtein distance ≤ 2) then the admitted list; for a refused
 * value, the nearest admitted values (folded comparison) then where the admitted ones are listed.
 */
import { foldValue } from "../text/fold.ts"

/** `« value »` with French guillemets (non-breaking spaces inside). */
export const quote = (value: string): string => `«\u00a0${value}\u00a0»`

/**
 * Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), stopping
 * early once it is certain to exceed `max` (answers `max + 1` then).
 */
export const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  const n = b.length
  let prev2 = new Array<number>(n + 1).fill(0)
  let prev = Array.from({ length: n + 1 }, (_, j) => j)
  let cur = new Array<number>(n + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i
    let rowMin = i
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, prev2[j - 2] + 1)
      }
      cur[j] = d
      if (d < rowMin) rowMin = d
    }
    if (rowMin > max) return max + 1
    const t = prev2
    prev2 = prev
    prev = cur
    cur = t
  }
  return prev[n]
}

/**
 * Admitted values nearest to `input` (folded comparison): those whose folded form starts with the
 * folded input (or the reverse), or within edit distance 2; closest first, at most `max`.
 */
export const nearestValues = (input: string, candidates: Iterable<string>, max = 3): Array<string> => {
  const folded = foldValue(input)
  if (folded === "") return []
  const scored: Array<{ value: string; distance: number; order: number }> = []
  const seen = new Set<string>()
  let order = 0
  for (const candidate of candidates) {
    const key = foldValue(candidate)
    if (key === "" || seen.has(candidate)) continue
    let distance = editDistance(folded, key, 2)
    if (distance > 2 && (key.startsWith(folded) || folded.startsWith(key))) distance = 3
    if (distance <= 3) {
      seen.add(candidate)
      scored.push({ value: candidate, distance, order: order++ })
    }
  }
  scored.sort((x, y) => x.distance - y.distance || x.order - y.order)
  return scored.slice(0, max).map((s) => s.value)
}

/** `valeur la plus proche : « X » ; valeurs admises : /v1/referentiels/races` */
export const hintFor = (nearest: ReadonlyArray<string>, admitted: string): string =>
  nearest.length === 0
    ? admitted
    : `${nearest.length === 1 ? "valeur la plus proche" : "valeurs les plus proches"} : ${nearest.map(quote).join(", ")} ; ${admitted}`

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
