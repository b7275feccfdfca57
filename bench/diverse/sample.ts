/**
 * What the varied corpora are drawn from, asked of a running server (so any data file works, and
 * nothing depends on the engine's internals): distinct ids spread over the data, real rows for
 * names and filter values, parents with their number of offspring, the breeding statuses.
 *
 * Ids come from list pages of strata (birth year × sex, their sizes read from a breakdown), every
 * page a stratum can reach (offset ≤ 10 000 from either end of the file order) listed, shuffled
 * with the seed and fetched until enough ids are in: the ids are spread over years, sexes and the
 * file, and a seed gives the same ids on the same data. Rows without a birth year are out of reach
 * of the strata and never drawn.
 */
import { SEXES } from "@equides/domain"
import { Rng } from "../../packages/ingest/src/generate/prng.ts"
import { getJson, inBatches } from "../routes.ts"
import { shuffle } from "./random.ts"

/** A list row as `vue=resume` gives it. */
export interface SampleRow {
  readonly id: string
  readonly nom: string
  readonly race?: string
  readonly sexe?: string
  readonly annee_naissance?: number
  readonly robe?: string
}

export interface Parent {
  readonly id: string
  /** The link it was met as: a sire (`pere`) or a dam (`mere`). */
  readonly role: "pere" | "mere"
  readonly descendants: number
}

export interface Sample {
  readonly records: number
  /** Distinct ids, in the order drawn. */
  readonly ids: ReadonlyArray<string>
  /** Rows of the pages drawn (at most `rowsKept`): names and filter values, as frequent as in the data. */
  readonly rows: ReadonlyArray<SampleRow>
  /** Distinct parents met on full records of those pages, with their number of direct offspring. */
  readonly parents: ReadonlyArray<Parent>
  /** Referential `statuts_reproducteur`: value and count. */
  readonly statuses: ReadonlyArray<readonly [string, number]>
}

export interface SampleOptions {
  readonly seed: number
  readonly ids: number
  readonly rowsKept: number
  readonly parents: number
}

const PAGE = 100
/** The highest offset the list route accepts. */
const MAX_OFFSET = 10_000
/** Pages fetched at a time: the server is not under test yet, only asked for data. */
const WIDTH = 8

interface Stratum {
  readonly year: string
  readonly sexe: string
  readonly size: number
}

interface Count {
  readonly valeur: string
  readonly nombre: number
}

/** Every page of `stratum` reachable from the start (tri=naturel) or, for the rest, from the end (tri=-naturel). */
export const pagesOf = (stratum: Stratum): Array<string> => {
  const pages: Array<string> = []
  const base = `/v1/equides?annee_naissance=${stratum.year}&sexe=${stratum.sexe}&limite=${PAGE}`
  const forward = Math.min(stratum.size, MAX_OFFSET + PAGE)
  for (let offset = 0; offset < forward; offset += PAGE) pages.push(`${base}&offset=${offset}`)
  for (let offset = 0; offset <= MAX_OFFSET && offset < stratum.size - forward; offset += PAGE) pages.push(`${base}&tri=-naturel&offset=${offset}`)
  return pages
}

const strataOf = async (baseUrl: string): Promise<Array<Stratum>> => {
  const bySex = await Promise.all(
    SEXES.map(async (sexe) => {
      const { donnees } = await getJson<{ donnees: Array<Count> }>(baseUrl, `/v1/stats/repartition?dimension=annee_naissance&sexe=${sexe}`)
      return donnees.map(({ valeur, nombre }) => ({ year: valeur, sexe, size: nombre }))
    })
  )
  return bySex.flat().filter((stratum) => stratum.size > 0)
}

interface FullRow {
  readonly pere?: { readonly id?: string; readonly fiche_disponible?: boolean }
  readonly mere?: { readonly id?: string; readonly fiche_disponible?: boolean }
}

/** Parents (with a record of their own) of the full rows of `pages`, as sire or dam, then their offspring counts. */
const parentsOf = async (baseUrl: string, pages: ReadonlyArray<string>, wanted: number): Promise<Array<Parent>> => {
  const roles = new Map<string, Parent["role"]>()
  for (let i = 0; i < pages.length && roles.size < wanted; i += WIDTH) {
    const batch = await inBatches(pages.slice(i, i + WIDTH), WIDTH, (page) => getJson<{ donnees: Array<FullRow> }>(baseUrl, `${page}&vue=complet`))
    for (const row of batch.flatMap((page) => page.donnees)) {
      for (const role of ["pere", "mere"] as const) {
        const link = row[role]
        if (link?.id !== undefined && link.fiche_disponible === true && roles.size < wanted && !roles.has(link.id)) roles.set(link.id, role)
      }
    }
  }
  return inBatches([...roles], WIDTH, async ([id, role]) => ({
    id,
    role,
    descendants: (await getJson<{ nombre_de_descendants: number }>(baseUrl, `/v1/equides/${id}`)).nombre_de_descendants
  }))
}

export const drawSample = async (baseUrl: string, options: SampleOptions): Promise<Sample> => {
  const rng = new Rng(options.seed, 0, 0)
  const { lignes } = await getJson<{ lignes: number }>(baseUrl, "/readyz")
  const pages = shuffle(rng, (await strataOf(baseUrl)).flatMap(pagesOf))
  const ids = new Set<string>()
  const rows: Array<SampleRow> = []
  let next = 0
  while (ids.size < options.ids && next < pages.length) {
    const batch = pages.slice(next, next + WIDTH)
    next += batch.length
    const fetched = await Promise.all(batch.map((page) => getJson<{ donnees: Array<SampleRow> }>(baseUrl, page)))
    for (const row of fetched.flatMap((page) => page.donnees)) {
      if (ids.size < options.ids) ids.add(row.id)
      if (rows.length < options.rowsKept) rows.push(row)
    }
  }
  const statuses = await getJson<{ donnees: Array<Count> }>(baseUrl, "/v1/referentiels/statuts_reproducteur")
  return {
    records: lignes,
    ids: [...ids],
    rows,
    parents: await parentsOf(baseUrl, pages, options.parents),
    statuses: statuses.donnees.map(({ valeur, nombre }) => [valeur, nombre] as const)
  }
}
