/**
 * The explorer's URLs: route templates (registered with the router and with admission, so ETag,
 * 304, compression, quota and the response cache apply as on every route: they are kept below
 * both, in `pageRoutes.ts`) and the builders pages use for their links.
 */

export {
  EXPLORER_ASSET,
  EXPLORER_GENETICS,
  EXPLORER_HOME,
  EXPLORER_LIST,
  EXPLORER_MATING,
  EXPLORER_MATINGS,
  EXPLORER_PEDIGREE,
  EXPLORER_PROGENY,
  EXPLORER_RECORD,
  EXPLORER_SIRES,
  EXPLORER_STATS,
  FAVICON,
  IMMUTABLE_POLICY
} from "../pageRoutes.ts"
import { EXPLORER_GENETICS, EXPLORER_LIST, EXPLORER_MATING, EXPLORER_MATINGS, EXPLORER_SIRES } from "../pageRoutes.ts"

export type Pairs = ReadonlyArray<readonly [string, string]>

/** The first value of parameter `name` among `pairs`, or "" (a form field's value). */
export const valueOf = (pairs: Pairs, name: string): string => pairs.find(([k]) => k === name)?.[1] ?? ""

/** `?a=1&b=2` (form-encoded), or nothing for no pairs. */
export const queryString = (pairs: Pairs): string =>
  pairs.length === 0 ? "" : `?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString()}`

export const recordPath = (id: string): string => `/explorer/equides/${id}`
export const pedigreePath = (id: string, generations?: number): string =>
  `/explorer/equides/${id}/pedigree${generations === undefined ? "" : queryString([["generations", String(generations)]])}`
export const progenyPath = (id: string, pairs: Pairs = []): string =>
  `/explorer/equides/${id}/descendance${queryString(pairs)}`
export const listPath = (pairs: Pairs = []): string => `${EXPLORER_LIST}${queryString(pairs)}`
export const siresPath = (pairs: Pairs = []): string => `${EXPLORER_SIRES}${queryString(pairs)}`
export const genetiquePath = (race: string): string => `${EXPLORER_GENETICS}${queryString([["race", race]])}`
export const matingsPath = (pairs: Pairs = []): string => `${EXPLORER_MATINGS}${queryString(pairs)}`
export const matingPath = (pere: string, mere: string): string => `${EXPLORER_MATING}${queryString([["pere", pere], ["mere", mere]])}`
