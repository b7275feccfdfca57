/**
 * GET /v1/accouplements/etalons (issue 28): every stallion matching the list's filters, ranked for
 * a mare by the F of their foal over all known generations. One indirect pass gives the mare's row
 * of the relationship matrix (genetics/relationshipRow.ts): the foal's F by stallion j is
 * a(mare, j)/2, for every j at once, never pair by pair. The page is the `offset + limite` best
 * candidates, kept in a bounded heap while the candidates are read once.
 */
import { Result } from "effect"
import { postingsCount } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { relationshipAt, relationshipRow } from "../genetics/relationshipRow.ts"
import type { Etalons } from "../schemas/etalons.ts"
import { foldValue } from "../text/fold.ts"
import type { QueryResult } from "./errors.ts"
import { foldedCodes } from "../dataset/foldedCodes.ts"
import { type FilterInput, resolveFilters } from "./filters.ts"
import { breedParente, single, threadPedigree } from "./genetique.ts"
import { paginationLinks } from "./paginate.ts"
import { compareIds } from "./progenyColumns.ts"
import { anneeOf, idOf, nomOf, raceOf, resume } from "./record.ts"
import { select } from "./select.ts"
import { selectionRows } from "./selection.ts"

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
    const males = foldedCodes(data.sexe, foldValue("Male"))
    const rows = males.length === 0 ? new Uint32Array(0) : selectionRows(select(data, { ...filters, sexe: males }))
    const row = relationshipRow(threadPedigree(data), data.genetics.longestLine, data.progeny, mere)
    return rank(data, mere, input, pairs, rows, (j) => relationshipAt(row, j))
  })

/**
 * F of the foal of `pere` × `mere` (rows) over all known generations, as the ranking gives it: a
 * test-mating page shows it beside the cut's F of `/v1/accouplements`.
 */
export const foalCoefficient = (data: DatasetData, pere: number, mere: number): number =>
  relationshipAt(relationshipRow(threadPedigree(data), data.genetics.longestLine, data.progeny, mere), pere) / 2

/** The page of `rows` (undefined: every row) by their coancestry with the mare, `kinship(j)` being a(mare, j). */
const rank = (
  data: DatasetData,
  mere: number,
  input: EtalonsInput,
  pairs: ReadonlyArray<readonly [string, string]>,
  rows: Uint32Array | undefined,
  kinship: (row: number) => number
): Etalons => {
  const { coefficient_max, limite, offset } = input
  const count = rows === undefined ? data.size : rows.length
  const produits = (row: number): number => postingsCount(data.progeny, row)
  // > 0 when candidate a ranks after b: coefficient ascending, then (`tie`) produits descending, nom, id.
  const tie = (a: number, b: number): number => produits(b) - produits(a) || data.nameKey[a] - data.nameKey[b] || compareIds(data, a, b)
  const after = (a: number, b: number): number => kinship(a) - kinship(b) || tie(a, b)

  // A max-heap of the `need` best read so far: its root is the worst of them.
  const need = offset + limite
  const heap = new Int32Array(need)
  let size = 0
  let total = 0
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
    total++
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
  const ranked = Array.from(heap.subarray(0, size)).sort(after).slice(offset)
  const parente = breedParente(data, mere, ranked)
  return {
    mere: { id: idOf(data, mere), nom: nomOf(data, mere), race: raceOf(data, mere), annee_naissance: anneeOf(data, mere) ?? null },
    donnees: ranked.map((row, k) => ({
      etalon: resume(data, row),
      coefficient: kinship(row) / 2,
      parente_moyenne: parente === null ? null : single(parente[k]),
      produits: produits(row)
    })),
    pagination: { total, limite, offset, ...paginationLinks(ETALONS_PATH, pairs, offset, limite, total) }
  }
}
