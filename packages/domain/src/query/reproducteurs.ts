/**
 * GET /v1/stats/reproducteurs: parents ranked by their offspring's values of one index code, read
 * from the code's columns (`progenyColumns.ts`, built with the Dataset). Without year bounds the
 * order is the build's, a request walks the ranking and summarizes the parents it serves; with
 * bounds the parents' entries are summarized over the offspring born in the range, and the parents
 * kept are sorted.
 */
import * as Result from "effect/Result"
import { dictionarySize, dictionaryValue } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { entryStart, PRODUITS_MIN_DEFAUT, type Summary, summarize } from "../dataset/progenyColumns.ts"
import type { Reproducteur, Reproducteurs } from "../schemas/progeny.ts"
import { SEXES } from "../vocabulary.ts"
import { InvalidParameter, type QueryResult } from "./errors.ts"
import { admittedHint, resolveCodes, yearOfCode } from "./filters.ts"
import { paginationLinks } from "./paginate.ts"
import { compareIds, entryCount, entryValue, groupSummary } from "./progenyColumns.ts"
import { resume } from "./record.ts"
import { allowedTable } from "./terms.ts"

export const REPRODUCTEURS_PATH = "/v1/stats/reproducteurs"
/** The parent's sex: its record's `sexe`. */
export const REPRODUCTEURS_SEXES = ["Male", "Femelle"] as const
export const REPRODUCTEURS_SEXE_DEFAUT = "Male"
export { PRODUITS_MIN_DEFAUT }
export const PRODUITS_MIN_MIN = 1
export const PRODUITS_MIN_MAX = 1000

/** The decoded query (bounds and admitted values already checked by the route's schema). */
export interface ReproducteursInput {
  readonly code: string
  readonly sexe?: (typeof REPRODUCTEURS_SEXES)[number] | undefined
  readonly race?: ReadonlyArray<string> | undefined
  readonly annee_min?: number | undefined
  readonly annee_max?: number | undefined
  readonly produits_min?: number | undefined
  readonly limite: number
  readonly offset: number
}

/**
 * The code of `codes_indice` named by `value`, compared folded like the filters; where several
 * dictionary spellings fold alike, the one written exactly as given, else the first.
 */
export const resolveIndexCode = (data: DatasetData, value: string): QueryResult<number> => {
  if (value.includes(",")) {
    return Result.fail(
      new InvalidParameter({
        parametre: "code",
        detail: `code n'admet qu'un seul code d'indice, pas une liste.`,
        indice: admittedHint("code")
      })
    )
  }
  return Result.map(resolveCodes("code", [value], data.indice), (codes) =>
    codes.find((code) => dictionaryValue(data.indice.values, code) === value.trim()) ?? codes[0])
}

interface Ranked {
  readonly group: number
  readonly produits: number
  readonly summary: Summary
}

const row = (data: DatasetData, parent: number, produits: number, summary: Summary): Reproducteur => ({
  parent: resume(data, parent),
  produits,
  moyenne: summary.moyenne,
  mediane: summary.mediane,
  maximum: summary.maximum
})

/**
 * Whether `parent` is of the sex and among the races asked. A function of the module, not a closure
 * made by each request: V8's optimised code for the ranking inlined the first request's closure and
 * held it weakly, so the first full collection after it threw that code away, and the next request
 * ran its walk in the interpreter again (issue 24 item 6: 10–17 ms on each worker's first request at
 * full scale after the warm-up, "embedded weak objects cleared" in `--trace-deopt`).
 */
const admits = (data: DatasetData, parent: number, sexe: number, races: Uint8Array | undefined): boolean =>
  data.sexe.codes[parent] === sexe && (races === undefined || races[data.race.codes[parent]] === 1)

/** Group `g` of `indice` as a row of the answer, summarised over all its products. */
const rankedRow = (data: DatasetData, indice: number, g: number): Reproducteur =>
  row(data, data.progenyColumns.parents[g], entryCount(data.progenyColumns, g), groupSummary(data, indice, g))

/** Whether group `g` may be ranked: at least `minimum` products (within year bounds, a group with more may still fall short), and a parent `admits` takes. */
const ranks = (data: DatasetData, g: number, sexe: number, minimum: number, races: Uint8Array | undefined): boolean =>
  entryCount(data.progenyColumns, g) >= minimum && admits(data, data.progenyColumns.parents[g], sexe, races)

/**
 * The groups of code `indice` whose parent is of `sexe` with at least the default number of
 * products, in the ranking's order: the plain URI's whole answer but the page's summaries, held in
 * the Dataset (`ProgenyColumns.plain`). Without them each request walked every group of its code to
 * count them, reading a parent's row at random for each (memory-bound: 1 ms warm, 7–14 ms on a
 * worker's first call after other routes had run, issue 24 item 6).
 */
const plainRankingOf = (data: DatasetData, indice: number, sexe: number): Uint32Array => {
  const { plain, plainStart } = data.progenyColumns
  const k = indice * SEXES.length + sexe - 1
  return plain.subarray(plainStart[k], plainStart[k + 1])
}

export const reproducteurs = (
  data: DatasetData,
  input: ReproducteursInput,
  query: ReadonlyArray<readonly [string, string]>
): QueryResult<Reproducteurs> => {
  const code = resolveIndexCode(data, input.code)
  if (Result.isFailure(code)) return Result.fail(code.failure)
  let races: Uint8Array | undefined
  if (input.race !== undefined) {
    const codes = resolveCodes("race", input.race, data.race)
    if (Result.isFailure(codes)) return Result.fail(codes.failure)
    races = allowedTable(codes.success, dictionarySize(data.race.values))
  }
  const columns = data.progenyColumns
  const { codeGroups, parents, ranking, born } = columns
  const indice = code.success
  const first = codeGroups[indice]
  const end = codeGroups[indice + 1]
  const sexe = SEXES.indexOf(input.sexe ?? REPRODUCTEURS_SEXE_DEFAUT) + 1
  const minimum = input.produits_min ?? PRODUITS_MIN_DEFAUT
  const { limite, offset } = input

  const donnees: Array<Reproducteur> = []
  let total = 0
  if (input.annee_min === undefined && input.annee_max === undefined) {
    if (races === undefined && minimum === PRODUITS_MIN_DEFAUT) {
      const kept = plainRankingOf(data, indice, sexe)
      total = kept.length
      for (let i = offset; i < Math.min(total, offset + limite); i++) donnees.push(rankedRow(data, indice, kept[i]))
    } else {
      for (let r = first; r < end; r++) {
        if (!ranks(data, ranking[r], sexe, minimum, races)) continue
        if (total >= offset && total < offset + limite) donnees.push(rankedRow(data, indice, ranking[r]))
        total++
      }
    }
  } else {
    // The `annee` codes of the years in the range (code 0, no year, never is).
    const years = yearOfCode(data.annee)
    const inRange = new Uint8Array(years.length)
    for (let code = 1; code < years.length; code++) {
      inRange[code] = years[code] >= (input.annee_min ?? -Infinity) && years[code] <= (input.annee_max ?? Infinity) ? 1 : 0
    }
    const ranked: Array<Ranked> = []
    let kept = new Float64Array(64)
    for (let g = first; g < end; g++) {
      if (!ranks(data, g, sexe, minimum, races)) continue
      const from = entryStart(columns, g)
      const to = entryStart(columns, g + 1)
      if (kept.length < to - from) kept = new Float64Array(to - from)
      let produits = 0
      for (let i = from; i < to; i++) {
        if (inRange[born[i]] === 1) kept[produits++] = entryValue(data, indice, i)
      }
      if (produits >= minimum) ranked.push({ group: g, produits, summary: summarize(kept, 0, produits) })
    }
    ranked.sort((a, b) =>
      b.summary.moyenne - a.summary.moyenne || b.produits - a.produits ||
      data.nameKey[parents[a.group]] - data.nameKey[parents[b.group]] || compareIds(data, parents[a.group], parents[b.group])
    )
    total = ranked.length
    for (const r of ranked.slice(offset, offset + limite)) donnees.push(row(data, parents[r.group], r.produits, r.summary))
  }
  const links = paginationLinks(REPRODUCTEURS_PATH, query, offset, limite, total)
  return Result.succeed({ code: dictionaryValue(data.indice.values, indice), donnees, pagination: { total, limite, offset, ...links } })
}
