/**
 * The paths of the pages (documentation, interactive reference, explorer) and what admission
 * needs to know of them: their templates (registered with the router and with admission, so ETag,
 * 304, compression, quota and the response cache apply as on every route), their execution costs
 * and cache policies. Kept below admission and the pages alike (only the platform and the domain
 * are imported), so that admission never reads a page module.
 */
import { DOCUMENTATION_PATH, REFERENCE_PATH } from "@equides/domain"

export const DOCUMENTATION_ROUTE = DOCUMENTATION_PATH

/** Every path the reference serves (the page and its files). */
export const REFERENCE_ROUTES: ReadonlyArray<string> = [
  REFERENCE_PATH,
  `${REFERENCE_PATH}/swagger-ui-bundle.js`,
  `${REFERENCE_PATH}/swagger-ui.css`,
  `${REFERENCE_PATH}/reference.css`,
  `${REFERENCE_PATH}/init.js`
]

/**
 * The home. The router ignores trailing slashes, so this template also matches `/explorer`, which
 * the route redirects here (one URI per resource); admission lets this one path keep its slash.
 */
export const EXPLORER_HOME = "/explorer/"
export const EXPLORER_LIST = "/explorer/equides"
export const EXPLORER_RECORD = "/explorer/equides/:id"
export const EXPLORER_PEDIGREE = "/explorer/equides/:id/pedigree"
export const EXPLORER_PROGENY = "/explorer/equides/:id/descendance"
export const EXPLORER_STATS = "/explorer/stats"
export const EXPLORER_SIRES = "/explorer/reproducteurs"
export const EXPLORER_GENETICS = "/explorer/genetique"
export const EXPLORER_MATINGS = "/explorer/accouplements"
/** One stallion × the mare: the foal of a test mating (`/v1/accouplements`). */
export const EXPLORER_MATING = "/explorer/accouplements/essai"
/** Static files under content-hash names (`explorer.3f2a…css`): cached for a year, immutable. */
export const EXPLORER_ASSET = "/explorer/static/:file"
export const FAVICON = "/favicon.ico"

/** Every template the explorer serves, for the router and admission alike. */
export const EXPLORER_ROUTES: ReadonlyArray<string> = [
  EXPLORER_HOME,
  EXPLORER_LIST,
  EXPLORER_RECORD,
  EXPLORER_PEDIGREE,
  EXPLORER_PROGENY,
  EXPLORER_STATS,
  EXPLORER_SIRES,
  EXPLORER_GENETICS,
  EXPLORER_MATINGS,
  EXPLORER_MATING,
  EXPLORER_ASSET,
  FAVICON
]

/**
 * The execution cost of the pages that read the data, in ms of CPU at full scale (issue 24, item 5:
 * 1 quota unit per 0.5 ms, `@equides/domain` `executionCost`), estimated as the API routes' are:
 * on the embedded sample, single renders (list 0.30 ms, of which 0.07 ms of queries; stats 0.24 ms,
 * of which 0.03 ms of breakdowns; record 0.06, pedigree 0.1, progeny of a top sire 0.3), the
 * queries scaled by the row count (×148), against the pages' full-scale timings of
 * docs/performance.md (list 36–53 ms and stats 27 ms median over HTTP under a load average of 11).
 */
export const EXPLORER_EXECUTION_MS: Readonly<Record<string, number>> = {
  [EXPLORER_LIST]: 10,
  [EXPLORER_STATS]: 4,
  [EXPLORER_RECORD]: 0.5,
  [EXPLORER_PEDIGREE]: 0.5,
  [EXPLORER_PROGENY]: 0.5,
  // As /v1/stats/reproducteurs once its code's columns are built (p99 6 ms at full scale, docs/performance.md).
  [EXPLORER_SIRES]: 2,
  // As /v1/stats/genetique: a new (race, years) pair's first use (40 ms at full scale, see its definition).
  [EXPLORER_GENETICS]: 40,
  // As /v1/accouplements/etalons (one indirect pass and the candidates read once, docs/decisions.md).
  [EXPLORER_MATINGS]: 20,
  // As /v1/accouplements (0.5 ms) and the pair's F over all generations through their two ancestries: at full scale,
  // over HTTP with the cache off, 300 varied pairs p50 2.0 / 1.8 ms, p90 3.0 / 2.5 (plain / hard extract), the
  // warm-up's deep related pair 4.1 ms (docs/decisions.md).
  [EXPLORER_MATING]: 4
}

/** `Cache-Control` of content-hashed files: their URL changes whenever their bytes do. */
export const IMMUTABLE_POLICY = "public, max-age=31536000, immutable"

/** The cache policy of a route template, when it is not the contract's default. */
export const cachePolicyOf = (route: string | undefined): string | undefined =>
  route === EXPLORER_ASSET ? IMMUTABLE_POLICY : undefined

/** Every page template, for the router and admission alike. */
export const PAGE_ROUTES: ReadonlyArray<string> = [DOCUMENTATION_ROUTE, ...REFERENCE_ROUTES, ...EXPLORER_ROUTES]
