/**
 * What the `Executor` runs, in the server's thread (`WORKERS=0`) or on a query worker: an API
 * execution (`answer` of `@equides/domain/answers`: JSON, or the parameter it refuses) or an
 * explorer page (`renderPage`: HTML with its status). `perform` is the one function both places
 * call, so both make the same bytes. A new kind of work is one member of `Execution` (or of
 * `PageExecution`) and one case of `answer` (or of `renderPage`), and one entry of `warmUpWork`.
 */
import {
  type DatasetData,
  dictionarySize,
  dictionaryValue,
  type EtalonsQuery,
  idOf,
  type ListQuery,
  nomOf,
  type RepartitionQuery,
  type ReproducteursQuery,
  type SearchQuery
} from "@equides/domain"
import { answer, type Execution } from "@equides/domain/answers"
import { Result } from "effect"
import { type PageExecution, renderPage } from "../explorer/pages.ts"
import { writeParquet } from "../export/parquet.ts"
import type { Refusal } from "./protocol.ts"

/** The whole extract written as Parquet to `parquet` (a path): minutes of a worker, once per dataset. */
export interface ParquetWork {
  readonly parquet: string
}

export type Work = Execution | PageExecution | ParquetWork

export type Outcome =
  | { readonly kind: "body"; readonly status: number; readonly body: Uint8Array }
  | { readonly kind: "refused"; readonly refusal: Refusal }
  | { readonly kind: "defect"; readonly message: string }

export const isPage = (work: Work): work is PageExecution => "page" in work

export const isParquet = (work: Work): work is ParquetWork => "parquet" in work

/** The route family a work belongs to (metrics, tests): an endpoint's name, `explorer/<page>` or `parquet`. */
export const familyOf = (work: Work): string => (isPage(work) ? `explorer/${work.page}` : isParquet(work) ? "parquet" : work.endpoint)

/** Runs `work` over `data`; a throw is the caller's to report (a defect). */
export const perform = (data: DatasetData, work: Work): Outcome => {
  if (isPage(work)) {
    const { status, body } = renderPage(data, work)
    return { kind: "body", status, body }
  }
  if (isParquet(work)) {
    writeParquet(data, work.parquet)
    return { kind: "body", status: 200, body: new Uint8Array(0) }
  }
  const outcome = answer(data, work)
  if (Result.isSuccess(outcome)) return { kind: "body", status: 200, body: outcome.success }
  const { parametre, detail, indice } = outcome.failure
  return { kind: "refused", refusal: indice === undefined ? { parametre, detail } : { parametre, detail, indice } }
}

/**
 * One work of every family, over `data`'s own values (issue 24, item 6): run by each query worker,
 * and by the server's thread with `WORKERS=0`, before `/readyz` says ready, so that what a first
 * request would compile or build on first use (V8's optimised code, memoised lookups) is done then.
 * The subject is the first record with both parents on file (its sire has progeny); a dataset
 * without one warms what it can (a failed warm-up is ignored: the request will say what fails).
 */
export const warmUpWork = (data: DatasetData): ReadonlyArray<Work> => {
  if (data.size === 0) return []
  const { pere, mere } = data.links
  let subject = 0
  while (subject < data.size && !(pere.row[subject] >= 0 && mere.row[subject] >= 0)) subject++
  if (subject === data.size) subject = 0
  const sire = pere.row[subject] >= 0 ? pere.row[subject] : subject
  const dam = mere.row[subject] >= 0 ? mere.row[subject] : subject
  const id = idOf(data, subject)
  const race = dictionarySize(data.race.values) > 1 ? dictionaryValue(data.race.values, 1) : ""
  const letters = nomOf(data, subject).slice(0, 2)
  const code = dictionarySize(data.indice.values) > 1 ? dictionaryValue(data.indice.values, 1) : ""
  const list = (query: Record<string, unknown>, url: string): Work => ({ endpoint: "list", query: query as ListQuery, url })
  const breakdown = (query: Record<string, unknown>): Work => ({ endpoint: "repartition", query: query as RepartitionQuery })
  const ranking = (query: Record<string, unknown>, url: string): Work => ({ endpoint: "reproducteurs", query: query as ReproducteursQuery, url })
  return [
    list({ race: [race], tri: "-annee" }, `/v1/equides?race=${encodeURIComponent(race)}&tri=-annee`),
    list({ sexe: ["Femelle"], annee_min: 2000, tri: "nom", vue: "complet" }, "/v1/equides?sexe=Femelle&annee_min=2000&tri=nom&vue=complet"),
    list({ nom: letters, tri: "-nom" }, `/v1/equides?nom=${encodeURIComponent(letters)}&tri=-nom`),
    { endpoint: "suggest", query: { q: letters } as SearchQuery },
    breakdown({}),
    breakdown({ dimension: "annee_naissance", sexe: ["Male"] }),
    breakdown({ dimension: "robe", race: [race], annee_max: 2000 }),
    { endpoint: "stats" },
    { endpoint: "consanguinite", row: subject, generations: 12 },
    { endpoint: "accouplement", pere: sire, mere: dam === sire ? subject : dam, generations: 12 },
    { endpoint: "genetique", request: { kind: "equide", row: subject } },
    { endpoint: "descendanceStatistiques", row: sire },
    ranking({ code }, `/v1/stats/reproducteurs?code=${encodeURIComponent(code)}`),
    ranking({ code, annee_min: 2000 }, `/v1/stats/reproducteurs?code=${encodeURIComponent(code)}&annee_min=2000`),
    { endpoint: "etalons", mere: dam, query: { mere: idOf(data, dam) } as EtalonsQuery, url: `/v1/accouplements/etalons?mere=${idOf(data, dam)}` },
    { page: "list", url: `/explorer/equides?race=${encodeURIComponent(race)}&sexe=Male` },
    { page: "stats", url: "/explorer/stats" },
    { page: "record", url: `/explorer/equides/${id}`, id },
    { page: "pedigree", url: `/explorer/equides/${id}/pedigree?generations=8`, id },
    { page: "progeny", url: `/explorer/equides/${idOf(data, sire)}/descendance`, id: idOf(data, sire) },
    { page: "accouplements", url: `/explorer/accouplements?mere=${idOf(data, dam)}` }
  ]
}

/** Runs every warm-up work through `run`, failures ignored. */
export const warmUp = (data: DatasetData, run: typeof perform): void => {
  for (const work of warmUpWork(data)) {
    try {
      run(data, work)
    } catch {
      // A warm-up is a head start, not a check: the request that meets the failure reports it.
    }
  }
}
