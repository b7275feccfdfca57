/**
 * The varied corpora of issue 9, and issue 24's families (consanguinity, matings, the explorer's
 * pages, the statistics): one list of distinct paths per family of traffic, drawn with a seed
 * from a sample of the served data (sample.ts). Each family draws from its own stream of the seed,
 * so that changing one family leaves the others' paths as they were. The statistics pages take no
 * parameter: their families repeat one URI (`sameUri`).
 */
import { Rng, Weighted } from "../../packages/ingest/src/generate/prng.ts"
import { query, words } from "../routes.ts"
import { shuffle } from "./random.ts"
import type { ExplorerTwinName } from "./explorerTwins.ts"
import type { Parent, Sample, SampleRow } from "./sample.ts"

export const FAMILY_NAMES = [
  "record",
  "pedigree",
  "progeny",
  "list",
  "autocomplete",
  "breakdown",
  "stats",
  "consanguinity-8",
  "consanguinity-12",
  "matings",
  "explorer-record",
  "explorer-pedigree",
  "explorer-progeny",
  "explorer-list",
  "explorer-stats",
  "crawler"
] as const
/** A family drawn for a route of the API no family above covers (`routeFamilies.ts`): `api <its discovery key>`. */
export type RouteFamilyName = `api ${string}`
export type FamilyName = (typeof FAMILY_NAMES)[number] | RouteFamilyName | ExplorerTwinName

export interface Family {
  readonly name: FamilyName
  readonly description: string
  /** The route of the API it sends (as served, `/v1/equides/{id}`); none for the explorer's pages. */
  readonly route?: string
  /** Distinct paths, in the order they are to be sent (one path repeated when `sameUri`). */
  readonly paths: ReadonlyArray<string>
  /**
   * A page without parameters: every request asks the same URI, which the response cache would
   * answer after the first, so under load it is measured with the cache off.
   */
  readonly sameUri?: boolean
}

export interface CorpusOptions {
  readonly seed: number
  /** Paths of each family not made of the id pool (progeny, list, autocomplete, breakdown), at most. */
  readonly size: number
}

/** The filters of issue 9's list and breakdown families; `annees` is annee_min, annee_max or both. */
export const FILTER_KINDS = ["race", "sexe", "robe", "annees", "avec_performances", "statut_reproducteur", "nom"] as const
export type FilterKind = (typeof FILTER_KINDS)[number]

export const TRIS = ["-naturel", "nom", "-nom", "annee", "-annee"] as const
export const DIMENSIONS = ["race", "robe", "sexe", "discipline", "annee_naissance", "statut_reproducteur"] as const
/** Offsets of the list family: a multiple of the default page, up to this. */
export const MAX_LIST_OFFSET = 1000
const LIST_PAGE = 20
export const PROGENY_LIMITS = [10, 20, 50, 100] as const
/** The descendance route's default `limite`, left out of the path when drawn. */
const PROGENY_DEFAULT_LIMIT = 50
export const MAX_GENERATIONS = 8
/** Matings at the route's default depth (8, left out of the path) or at the deepest. */
export const MATING_GENERATIONS = [8, 12] as const
const DEFAULT_MATING_GENERATIONS = 8

/** Draws in a row that found nothing new, after which `draw` is taken to have no more to give. */
const EXHAUSTED_AFTER = 1000

/** Up to `size` distinct results of `draw` (a small sample may have fewer to give). */
const distinct = (size: number, draw: () => string): Array<string> => {
  const paths = new Set<string>()
  for (let fruitless = 0; paths.size < size && fruitless < EXHAUSTED_AFTER;) {
    const before = paths.size
    paths.add(draw())
    fruitless = paths.size === before ? fruitless + 1 : 0
  }
  return [...paths]
}

/** A row of the sample having `field`, or undefined after a few tries. */
const rowWith = (rng: Rng, rows: ReadonlyArray<SampleRow>, field: keyof SampleRow): SampleRow | undefined => {
  for (let tries = 0; tries < 16; tries++) {
    const row = rng.pick(rows)
    if (row[field] !== undefined && row[field] !== "") return row
  }
  return undefined
}

/** The first 1–3 letters of a word of a real name, lower-cased as people type them. */
export const namePrefix = (rng: Rng, rows: ReadonlyArray<SampleRow>): string | undefined => {
  const nameWords = words(rng.pick(rows).nom)
  if (nameWords.length === 0) return undefined
  return rng.pick(nameWords).slice(0, rng.between(1, 3)).toLowerCase()
}

type Params = Record<string, string>

const filterParams = (rng: Rng, kind: FilterKind, sample: Sample, statuses: Weighted<string>): Params => {
  const value = (field: "race" | "sexe" | "robe"): Params => {
    const row = rowWith(rng, sample.rows, field)
    return row === undefined ? {} : { [field]: String(row[field]) }
  }
  switch (kind) {
    case "race":
    case "sexe":
    case "robe":
      return value(kind)
    case "annees": {
      const years = [rowWith(rng, sample.rows, "annee_naissance"), rowWith(rng, sample.rows, "annee_naissance")]
        .flatMap((row) => row?.annee_naissance ?? [])
        .sort((a, b) => a - b)
      if (years.length < 2) return {}
      const side = rng.below(3)
      return side === 0 ? { annee_min: String(years[0]) } : side === 1 ? { annee_max: String(years[1]) } : { annee_min: String(years[0]), annee_max: String(years[1]) }
    }
    case "avec_performances":
      return { avec_performances: String(rng.chance(0.5)) }
    case "statut_reproducteur":
      return statuses.total === 0 ? {} : { statut_reproducteur: statuses.pick(rng) }
    case "nom": {
      const prefix = namePrefix(rng, sample.rows)
      return prefix === undefined ? {} : { nom: prefix }
    }
  }
}

/** `count` filters of distinct kinds (fewer when the sample lacks values for some). */
const filters = (rng: Rng, count: number, sample: Sample, statuses: Weighted<string>): Params =>
  Object.assign({}, ...shuffle(rng, FILTER_KINDS).slice(0, count).map((kind) => filterParams(rng, kind, sample, statuses)))

/** Every prefix of real names as typed, the separators excepted (a key stroke then asks for nothing new). */
const typedPrefixes = (rng: Rng, sample: Sample, size: number): Array<string> => {
  const paths = new Set<string>()
  for (const name of shuffle(rng, [...new Set(sample.rows.map((row) => row.nom))])) {
    const typed = name.toLowerCase()
    for (let end = 1; end <= typed.length && paths.size < size; end++) {
      if (/[\p{L}\p{N}]/u.test(typed[end - 1])) paths.add(`/v1/search${query({ q: typed.slice(0, end) })}`)
    }
    if (paths.size >= size) break
  }
  return [...paths]
}

/** Progeny pages of real parents: a `limite` of PROGENY_LIMITS, the first page or a later one within the offspring. */
const progenyPaths = (rng: Rng, parents: ReadonlyArray<Parent>, size: number, prefix: string): Array<string> =>
  parents.length === 0 ? [] : distinct(size, () => {
    const parent = rng.pick(parents)
    const limit = rng.pick(PROGENY_LIMITS)
    const offset = rng.chance(0.5) ? 0 : limit * rng.below(Math.ceil(parent.descendants / limit))
    const params: Params = {
      ...(limit === PROGENY_DEFAULT_LIMIT ? {} : { limite: String(limit) }),
      ...(offset === 0 ? {} : { offset: String(offset) })
    }
    return `${prefix}/equides/${parent.id}/descendance${Object.keys(params).length === 0 ? "" : query(params)}`
  })

/** List pages: 1–3 filters, any `tri` or none, an offset ≤ MAX_LIST_OFFSET on the default page. */
const listPaths = (rng: Rng, sample: Sample, statuses: Weighted<string>, size: number, prefix: string): Array<string> =>
  distinct(size, () => {
    const params = filters(rng, rng.between(1, 3), sample, statuses)
    const tri = rng.below(TRIS.length + 1)
    if (tri < TRIS.length) params["tri"] = TRIS[tri]
    const offset = LIST_PAGE * rng.between(0, MAX_LIST_OFFSET / LIST_PAGE)
    if (offset > 0) params["offset"] = String(offset)
    return `${prefix}/equides${query(params)}`
  })

/** Every id of the pool once, each with a depth of 1–MAX_GENERATIONS. */
const pedigreePaths = (rng: Rng, ids: ReadonlyArray<string>, prefix: string): Array<string> =>
  shuffle(rng, ids).map((id) => `${prefix}/equides/${id}/pedigree?generations=${rng.between(1, MAX_GENERATIONS)}`)

/** A real sire with a real dam, at a depth of MATING_GENERATIONS. */
const matingPaths = (rng: Rng, parents: ReadonlyArray<Parent>, size: number): Array<string> => {
  const sires = parents.filter((parent) => parent.role === "pere")
  const dams = parents.filter((parent) => parent.role === "mere")
  if (sires.length === 0 || dams.length === 0) return []
  return distinct(size, () => {
    const generations = rng.pick(MATING_GENERATIONS)
    return `/v1/accouplements${query({
      pere: rng.pick(sires).id,
      mere: rng.pick(dams).id,
      ...(generations === DEFAULT_MATING_GENERATIONS ? {} : { generations: String(generations) })
    })}`
  })
}

export const buildCorpora = (sample: Sample, options: CorpusOptions): Array<Family> => {
  const stream = (family: number) => new Rng(options.seed, 1, family)
  const statuses = new Weighted(sample.statuses)
  const ids = (family: number) => shuffle(stream(family), sample.ids)
  const parents = sample.parents.filter((parent) => parent.descendants > 0)
  const sameUri = (path: string): ReadonlyArray<string> => Array.from({ length: options.size }, () => path)

  return [
    { name: "record", route: "/v1/equides/{id}", description: "one record, every id once", paths: ids(0).map((id) => `/v1/equides/${id}`) },
    { name: "pedigree", route: "/v1/equides/{id}/pedigree", description: `pedigree of 1–${MAX_GENERATIONS} generations, every id once`, paths: pedigreePaths(stream(1), sample.ids, "/v1") },
    { name: "progeny", route: "/v1/equides/{id}/descendance", description: "descendance of real parents, first or later pages", paths: progenyPaths(stream(2), parents, options.size, "/v1") },
    { name: "list", route: "/v1/equides", description: `list, 1–3 filters, any tri, offset ≤ ${MAX_LIST_OFFSET}`, paths: listPaths(stream(3), sample, statuses, options.size, "/v1") },
    { name: "autocomplete", route: "/v1/search", description: "/v1/search, every prefix of real names", paths: typedPrefixes(stream(4), sample, options.size) },
    {
      name: "breakdown",
      route: "/v1/stats/repartition",
      description: "/v1/stats/repartition, 0–2 filters",
      paths: (() => {
        const rng = stream(5)
        return distinct(options.size, () => {
          const dimension = rng.pick(DIMENSIONS)
          return `/v1/stats/repartition${query({ dimension, ...filters(rng, rng.between(0, 2), sample, statuses) })}`
        })
      })()
    },
    { name: "stats", route: "/v1/stats", description: "/v1/stats (one URI)", paths: sameUri("/v1/stats"), sameUri: true },
    { name: "consanguinity-8", route: "/v1/equides/{id}/consanguinite", description: "consanguinite at 8 generations (the default), every id once", paths: ids(7).map((id) => `/v1/equides/${id}/consanguinite`) },
    {
      name: "consanguinity-12",
      route: "/v1/equides/{id}/consanguinite",
      description: "consanguinite at 12 generations, every id once",
      paths: ids(8).map((id) => `/v1/equides/${id}/consanguinite?generations=12`)
    },
    { name: "matings", route: "/v1/accouplements", description: `/v1/accouplements, a real sire × a real dam, ${MATING_GENERATIONS.join(" or ")} generations`, paths: matingPaths(stream(9), parents, options.size) },
    { name: "explorer-record", description: "explorer record page, every id once", paths: ids(10).map((id) => `/explorer/equides/${id}`) },
    {
      name: "explorer-pedigree",
      description: `explorer pedigree page of 1–${MAX_GENERATIONS} generations, every id once`,
      paths: pedigreePaths(stream(11), sample.ids, "/explorer")
    },
    { name: "explorer-progeny", description: "explorer progeny page, first or later pages", paths: progenyPaths(stream(12), parents, options.size, "/explorer") },
    {
      name: "explorer-list",
      description: "explorer list page with its facets, filters as the list's",
      paths: listPaths(stream(13), sample, statuses, options.size, "/explorer")
    },
    { name: "explorer-stats", description: "/explorer/stats (one URI)", paths: sameUri("/explorer/stats"), sameUri: true },
    { name: "crawler", route: "/v1/equides/{id}", description: `${sample.ids.length} distinct ids, each asked once`, paths: ids(6).map((id) => `/v1/equides/${id}`) }
  ]
}
