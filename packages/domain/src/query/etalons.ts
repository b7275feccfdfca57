/**
 * GET /v1/accouplements/etalons (issue 28): every stallion matching the list's filters, ranked for
 * a mare by the F of their foal over all known generations. One indirect pass gives the mare's row
 * of the relationship matrix (genetics/relationshipRow.ts): the foal's F by stallion j is
 * a(mare, j)/2, for every j at once, never pair by pair. The page is the `offset + limite` best
 * candidates, kept in a bounded heap while the candidates are read once.
 */
import * as Result from "effect/Result"
import { lowerBound, postingsCount } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { isRelative, type RelationshipRow, relationshipAt, type Relatives } from "../genetics/relationshipRow.ts"
import type { Etalons } from "../schemas/etalons.ts"
import { foldValue } from "../text/fold.ts"
import type { QueryResult } from "./errors.ts"
import { foldedCodes } from "../dataset/foldedCodes.ts"
import { type FilterInput, resolveFilters } from "./filters.ts"
import { breedParente, noRelativeOf, pairRelationshipOf, relationshipRowOf, relativesOfRow, single } from "./genetique.ts"
import { paginationLinks } from "./paginate.ts"
import { compareIds } from "./progenyColumns.ts"
import { anneeOf, idOf, nomOf, raceOf, resume } from "./record.ts"
import { select } from "./select.ts"
import { type RowTest, type Selection, selectionOfRows, selectionRows } from "./selection.ts"

export const ETALONS_PATH = "/v1/accouplements/etalons"

/** The route's decoded parameters, `mere` resolved to her row by the handler, bounds already checked. */
export interface EtalonsInput extends Omit<FilterInput, "sexe"> {
  readonly coefficient_max?: number | undefined
  readonly limite: number
  readonly offset: number
}

/** The ranked stallions for the mare of row `mere` (a `Femelle`: the handler checked), or the filter refused. */
export const etalons = (
  data: DatasetData,
  mere: number,
  input: EtalonsInput,
  pairs: ReadonlyArray<readonly [string, string]>
): QueryResult<Etalons> =>
  Result.map(resolveFilters(data, input), (filters) => {
    // The list's own filters with sexe forced to Male (an extract without a male has no candidate).
    const males = maleCodes(data)
    const selection = males.length === 0 ? selectionOfRows(new Uint32Array(0)) : select(data, { ...filters, sexe: males })
    return rank(data, mere, input, pairs, selection)
  })

/**
 * F of the foal of `pere` × `mere` (rows) over all known generations, as the ranking gives it: a
 * test-mating page shows it beside the cut's F of `/v1/accouplements`. An unrelated pair is told
 * by the walk up his ancestry alone; a related one is swept over their two ancestries
 * (`pairRelationship`), not her whole row: one stallion, not the ranking's hundreds.
 */
export const foalCoefficient = (data: DatasetData, pere: number, mere: number): number => {
  if (noRelativeOf(data, mere)(pere)) return 0
  return pairRelationshipOf(data, mere, pere) / 2
}

const maleCodes = (data: DatasetData): ReadonlyArray<number> => foldedCodes(data.sexe, foldValue("Male"))

const produitsOf = (data: DatasetData, row: number): number => postingsCount(data.progeny, row)

/** > 0 when candidate a ranks after b at the same coefficient: produits descending, then nom, then id. */
const tieOf = (data: DatasetData) => (a: number, b: number): number =>
  produitsOf(data, b) - produitsOf(data, a) || data.nameKey[a] - data.nameKey[b] || compareIds(data, a, b)

/**
 * The first `need` candidates of the ranking when they are all no relatives of the mare and have
 * offspring (undefined when fewer are): the males of `progenyColumns.stallions` that `candidate` admits and
 * that are `unrelated` to her, in that order.
 */
const unrelatedFirst = (data: DatasetData, unrelated: RowTest, candidate: RowTest, need: number): Array<number> | undefined => {
  const order = data.progenyColumns.stallions
  const page: Array<number> = []
  for (let k = 0; k < order.length && page.length < need; k++) {
    const row = order[k]
    if (candidate(row) && unrelated(row)) page.push(row)
  }
  return page.length === need ? page : undefined
}

/** The page of the candidates of `selection` by their coancestry with the mare. */
const rank = (
  data: DatasetData,
  mere: number,
  input: EtalonsInput,
  pairs: ReadonlyArray<readonly [string, string]>,
  selection: Selection
): Etalons => {
  const { coefficient_max, limite, offset } = input
  const rows = selectionRows(selection)
  const count = rows === undefined ? data.size : rows.length
  // Asked of a few dozen stallions and the mare: a search in the rows, not a bitset of them all.
  const candidate = (row: number): boolean => {
    if (rows === undefined) return true
    const at = lowerBound(rows, row)
    return at < rows.length && rows[at] === row
  }
  const tie = tieOf(data)
  // The page when it is made of stallions unrelated to the mare (coefficient 0), each told by a walk
  // up his own ancestry: then neither her relatives nor her row are computed.
  const need = offset + limite
  const unrelatedPage = need > 0 ? unrelatedFirst(data, noRelativeOf(data, mere), candidate, need) : []
  // a(mare, j) otherwise: 0 for no relative of hers (one bitset word), else read from her row, both
  // computed on the first candidate asked about.
  let relatives: Relatives | undefined
  let row: RelationshipRow | undefined
  const kinship = (j: number): number => {
    relatives ??= relativesOfRow(data, mere)
    return isRelative(relatives, j) ? relationshipAt((row ??= relationshipRowOf(data, relatives)), j) : 0
  }

  // Candidates the ranking counts: all but the mare, and those above coefficient_max (relatives alone can be).
  let total = count - (candidate(mere) ? 1 : 0)
  if (coefficient_max !== undefined) {
    for (let k = 0; k < count; k++) {
      const j = rows === undefined ? k : rows[k]
      if (j !== mere && kinship(j) / 2 > coefficient_max) total--
    }
  }

  const ranked = unrelatedPage ?? heapRanked(rows, count, mere, need, coefficient_max, kinship, tie)
  const page = ranked.slice(offset)
  const parente = breedParente(data, mere, page)
  return {
    mere: { id: idOf(data, mere), nom: nomOf(data, mere), race: raceOf(data, mere), annee_naissance: anneeOf(data, mere) ?? null },
    donnees: page.map((row, k) => ({
      etalon: resume(data, row),
      coefficient: unrelatedPage === undefined ? kinship(row) / 2 : 0,
      parente_moyenne: parente === null ? null : single(parente[k]),
      produits: produitsOf(data, row)
    })),
    pagination: { total, limite, offset, ...paginationLinks(ETALONS_PATH, pairs, offset, limite, total) }
  }
}

/**
 * The `need` best of `rows` (undefined: every row) but `mere` at or below `coefficient_max`, in
 * order, `kinship(j)` being a(mare, j): kept in a bounded heap while the candidates are read once.
 */
const heapRanked = (
  rows: Uint32Array | undefined,
  count: number,
  mere: number,
  need: number,
  coefficient_max: number | undefined,
  kinship: (row: number) => number,
  tie: (a: number, b: number) => number
): Array<number> => {
  // > 0 when candidate a ranks after b: coefficient ascending, then the tie.
  const after = (a: number, b: number): number => kinship(a) - kinship(b) || tie(a, b)
  // A max-heap of the `need` best read so far: its root is the worst of them.
  const heap = new Int32Array(need)
  let size = 0
  // The root's a(mare, ·), read again only when the root changes: each candidate reads its own once.
  let rootKinship = 0
  const siftDown = (at: number): void => {
    for (;;) {
      const l = 2 * at + 1
      if (l >= size) return
      const r = l + 1
      const worst = r < size && after(heap[r], heap[l]) > 0 ? r : l
      if (after(heap[worst], heap[at]) <= 0) return
      const t = heap[at]
      heap[at] = heap[worst]
      heap[worst] = t
      at = worst
    }
  }
  for (let k = 0; k < count; k++) {
    const row = rows === undefined ? k : rows[k]
    if (row === mere) continue
    const a = kinship(row)
    if (coefficient_max !== undefined && a / 2 > coefficient_max) continue
    if (size < need) {
      let at = size++
      heap[at] = row
      while (at > 0) {
        const parent = (at - 1) >> 1
        if (after(heap[at], heap[parent]) <= 0) break
        const t = heap[at]
        heap[at] = heap[parent]
        heap[parent] = t
        at = parent
      }
      rootKinship = kinship(heap[0])
    } else if (need > 0 && (a - rootKinship || tie(row, heap[0])) < 0) {
      heap[0] = row
      siftDown(0)
      rootKinship = kinship(heap[0])
    }
  }
  return Array.from(heap.subarray(0, size)).sort(after)
}
