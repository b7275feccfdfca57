/**
 * GET /v1/equides pagination: one page of a selection in a given order, and the page links
 * (design 2.2).
 */
import { Result } from "effect"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { InvalidParameter, type QueryResult, quote } from "./errors.ts"
import type { Selection } from "./selection.ts"
import { isTri, orderedWindow, type PageStats } from "./sort.ts"
import { type Tri, TRIS } from "../vocabulary.ts"

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
 * One page of `selection` in the order `tri`. `offset` and `limite` are taken as given (validate
 * them first with `checkLimite`/`checkOffset`); an offset past the end gives an empty page.
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

const integerError = (parametre: string, value: number, min: number, max: number): InvalidParameter =>
  new InvalidParameter({
    parametre,
    detail: Number.isInteger(value)
      ? `La valeur ${quote(String(value))} est hors des bornes de ${parametre} (${min} à ${max}).`
      : `La valeur ${quote(String(value))} n'est pas un entier pour ${parametre}.`,
    indice: `un entier de ${min} à ${max}`
  })

/** `limite` of GET /v1/equides: integer 1..100, refused (not clamped) out of bounds. */
export const checkLimite = (limite: number | undefined): QueryResult<number> =>
  limite === undefined
    ? Result.succeed(DEFAULT_LIMITE)
    : Number.isInteger(limite) && limite >= MIN_LIMITE && limite <= MAX_LIMITE
    ? Result.succeed(limite)
    : Result.fail(integerError("limite", limite, MIN_LIMITE, MAX_LIMITE))

/** `offset` of GET /v1/equides: integer 0..10000, refused out of bounds. */
export const checkOffset = (offset: number | undefined): QueryResult<number> =>
  offset === undefined
    ? Result.succeed(0)
    : Number.isInteger(offset) && offset >= 0 && offset <= MAX_OFFSET
    ? Result.succeed(offset)
    : Result.fail(integerError("offset", offset, 0, MAX_OFFSET))

/** `tri`: one of TRIS (exact spelling), default `naturel`. */
export const parseTri = (tri: string | undefined): QueryResult<Tri> =>
  tri === undefined
    ? Result.succeed(DEFAULT_TRI)
    : isTri(tri)
    ? Result.succeed(tri)
    : Result.fail(
      new InvalidParameter({
        parametre: "tri",
        detail: `La valeur ${quote(tri)} n'est pas admise pour tri.`,
        indice: `valeurs admises : ${TRIS.join(", ")}`
      })
    )

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
 * max(0, offset − limite); `suivant` is null on the last page or when the next offset would pass
 * MAX_OFFSET; `note` is present iff rows exist that no offset ≤ MAX_OFFSET can reach.
 */
export const paginationLinks = (
  path: string,
  query: ReadonlyArray<readonly [string, string]>,
  offset: number,
  limite: number,
  total: number
): PaginationLinks => {
  const nextOffset = offset + limite
  const suivant = nextOffset >= total || nextOffset > MAX_OFFSET ? null : pageUri(path, query, nextOffset, limite)
  const precedent = offset === 0 ? null : pageUri(path, query, Math.max(0, offset - limite), limite)
  return beyondDepth(total, limite) ? { suivant, precedent, note: depthNote(total, limite) } : { suivant, precedent }
}
