/**
 * GET /v1/equides pagination: one page of a selection in a given order, and the page links
 * (design 2.2).
 */
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Selection } from "./selection.ts"
import { orderedWindow, type PageStats } from "./sort.ts"
import type { Tri } from "../vocabulary.ts"

/** Pagination depth: the largest offset admitted. */
export const MAX_OFFSET = 10000
export const MIN_LIMITE = 1
export const MAX_LIMITE = 100
export const DEFAULT_LIMITE = 20
export const DEFAULT_TRI: Tri = "naturel"

export interface Page {
  /** Rows matching the filters, before slicing. */
  readonly total: number
  /** The page's rows, in order. */
  readonly rows: Uint32Array
}

/**
 * One page of `selection` in the order `tri`. `offset` and `limite` are taken as given (the list's
 * query schema bounds them, `api/equides.ts`); an offset past the end gives an empty page.
 */
export const listPage = (
  data: DatasetData,
  selection: Selection,
  tri: Tri,
  offset: number,
  limite: number,
  stats?: PageStats
): Page => ({
  total: selection.count,
  rows: orderedWindow(data, selection, tri, offset, limite, stats)
})

export interface PaginationLinks {
  readonly suivant: string | null
  readonly precedent: string | null
  readonly note?: string
}

const encode = (text: string): string => encodeURIComponent(text)

/** `path?query` with `limite` and `offset` rewritten in place (appended when absent). */
export const pageUri = (
  path: string,
  query: ReadonlyArray<readonly [string, string]>,
  offset: number,
  limite: number
): string => {
  const parts: Array<string> = []
  let hasLimite = false
  let hasOffset = false
  for (const [key, value] of query) {
    if (key === "limite") {
      if (!hasLimite) parts.push(`limite=${limite}`)
      hasLimite = true
    } else if (key === "offset") {
      if (!hasOffset) parts.push(`offset=${offset}`)
      hasOffset = true
    } else {
      parts.push(`${encode(key)}=${encode(value)}`)
    }
  }
  if (!hasLimite) parts.push(`limite=${limite}`)
  if (!hasOffset) parts.push(`offset=${offset}`)
  return `${path}?${parts.join("&")}`
}

/** True when rows exist that no offset ≤ MAX_OFFSET reaches at this `limite`. */
export const beyondDepth = (total: number, limite: number): boolean => total > MAX_OFFSET + limite

/** The French note of a selection deeper than the pagination can reach. */
export const depthNote = (total: number, limite: number): string =>
  `La sélection compte ${total} équidés ; seuls les ${MAX_OFFSET + limite} premiers sont accessibles par cette route ` +
  `(offset maximal ${MAX_OFFSET}). Affinez les filtres pour atteindre les suivants.`

/**
 * Links of a page (design 2.2): path + the request's own parameters in their order, `limite` and
 * `offset` rewritten (replaced in place, appended when absent; a repeated one keeps its first
 * place and drops the others). `precedent` is null only at offset 0, else it points to
 * max(0, offset − limite); `suivant` is null on the last page or once the offset is MAX_OFFSET
 * (the depth is reached), else it points to min(offset + limite, MAX_OFFSET): a next page that
 * would start past the depth starts at it instead, as `precedent` stops at 0, so that following
 * the links reaches every row the note says is reachable; `note` is present iff rows exist that
 * no offset ≤ MAX_OFFSET can reach.
 */
export const paginationLinks = (
  path: string,
  query: ReadonlyArray<readonly [string, string]>,
  offset: number,
  limite: number,
  total: number
): PaginationLinks => {
  const nextOffset = offset + limite
  const suivant = nextOffset >= total || offset >= MAX_OFFSET ? null : pageUri(path, query, Math.min(nextOffset, MAX_OFFSET), limite)
  const precedent = offset === 0 ? null : pageUri(path, query, Math.max(0, offset - limite), limite)
  return beyondDepth(total, limite) ? { suivant, precedent, note: depthNote(total, limite) } : { suivant, precedent }
}
