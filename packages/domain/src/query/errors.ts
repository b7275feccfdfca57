/**
 * The one error of the query engine: a parameter whose value the contract does not admit.
 * The server maps it to a 400 problem (`#erreur-parametre-invalide`), copying `parametre`,
 * `detail` and `indice` into the problem's extensions.
 */
import { Result, Schema } from "effect"
import { foldValue } from "../text/fold.ts"

export class InvalidParameter extends Schema.TaggedError<InvalidParameter>()("InvalidParameter", {
  /** The faulty parameter, as named in the query (`race`, `annee_naissance`, `dimension`…). */
  parametre: Schema.String,
  /** Explanation for this occurrence, in French. */
  detail: Schema.String,
  /** Hint: nearest admitted values and/or the reference list to consult. */
  indice: Schema.optionalKey(Schema.String)
}) {
  override get message(): string {
    return this.detail
  }
}

/** Outcome of a query step that may refuse a parameter. */
export type QueryResult<A> = Result.Result<A, InvalidParameter>

/** `« value »` with French guillemets (non-breaking spaces inside). */
export const quote = (value: string): string => `«\u00a0${value}\u00a0»`

/** « La valeur « Xyz » n'est pas admise pour race. » */
export const notAdmitted = (parametre: string, value: string, indice?: string): InvalidParameter =>
  new InvalidParameter({
    parametre,
    detail: value.trim() === ""
      ? `Une valeur vide n'est pas admise pour ${parametre}.`
      : `La valeur ${quote(value)} n'est pas admise pour ${parametre}.`,
    ...(indice === undefined ? {} : { indice })
  })

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
