/**
 * What the `Executor` runs, in the server's thread (`WORKERS=0`) or on a query worker: an API
 * execution (`answer` of `@equides/domain/answers`: JSON, or the parameter it refuses) or an
 * explorer page (`renderPage`: HTML with its status). `perform` is the one function both places
 * call, so both make the same bytes. A new kind of work is one member of `Execution` (or of
 * `PageExecution`) and one case of `answer` (or of `renderPage`); its route's example (or the
 * page's entry of `PAGE_WARM_UPS`) is run before ready.
 */
import { Api, type DatasetData, endpointsOf, executionFamily, warmUpExecutions } from "@equides/domain"
import { answer, type Execution } from "@equides/domain/answers"
import * as Result from "effect/Result"
import { exampleSubject } from "../examples.ts"
import { pageWarmUps } from "../explorer/pageWarmUp.ts"
import { type PageExecution, renderPage } from "../explorer/pages.ts"
import type { Refusal } from "./protocol.ts"

export type Work = Execution | PageExecution

export type Outcome =
  | { readonly kind: "body"; readonly status: number; readonly body: Uint8Array }
  | { readonly kind: "refused"; readonly refusal: Refusal }
  | { readonly kind: "defect"; readonly message: string }

export const isPage = (work: Work): work is PageExecution => "page" in work

/** The route family a work belongs to (metrics, tests): an API execution's (`executionFamily`) or `explorer/<page>`. */
export const familyOf = (work: Work): string => (isPage(work) ? `explorer/${work.page}` : executionFamily(work))

/** Runs `work` over `data`; a throw is the caller's to report (a defect). */
export const perform = (data: DatasetData, work: Work): Outcome => {
  if (isPage(work)) {
    const { status, body } = renderPage(data, work)
    return { kind: "body", status, body }
  }
  const outcome = answer(data, work)
  if (Result.isSuccess(outcome)) return { kind: "body", status: 200, body: outcome.success }
  const { parametre, detail, indice } = outcome.failure
  return { kind: "refused", refusal: indice === undefined ? { parametre, detail } : { parametre, detail, indice } }
}

/**
 * What each query worker runs, and the server's thread with `WORKERS=0`, before `/readyz` says
 * ready (issue 24, item 6), so that what a first request would compile or build on first use (V8's
 * optimised code, memoised lookups) is done then: every route on the workers with its
 * documentation example and the other code paths its definition names (`warmUpExecutions`; a
 * route whose definition says why not, `notWarmed`, is left out), then every explorer page
 * rendered on the workers (`PAGE_WARM_UPS`). All drawn from the examples' subject over `data`'s
 * own values (the record with the most offspring, the parents of one of its products); a dataset
 * without one warms what it can (a failed warm-up is ignored: the request will say what fails).
 */
export const warmUpWork = (data: DatasetData): ReadonlyArray<Work> => {
  const subject = exampleSubject(data, () => undefined)
  if (subject === undefined) return []
  return [...warmUpExecutions(endpointsOf(Api), subject).map(({ execution }) => execution), ...pageWarmUps(subject)]
}

/**
 * Passes over the warm-up works. V8 optimises a function once it has run often enough with the
 * same shapes, and throws the optimised code away when a later run takes a branch or meets a shape
 * the earlier ones did not: after one pass, each route's loops were optimised for its first work
 * only, and the first requests (a route's plainer URI, another route sharing the code) paid the
 * interpreter again while V8 recompiled, 5–12 ms at full scale for the ranking of parents against
 * 2 warm (issue 24 item 6). A second pass brings it to 3–4 ms, a third did no better; each pass
 * after the first costs 0.1–0.2 s of a worker's start at full scale (the stallions' ranking
 * included), in parallel on the workers.
 */
export const WARM_UP_PASSES = 2

/** Runs every warm-up work through `run`, `WARM_UP_PASSES` times, failures ignored. */
export const warmUp = (data: DatasetData, run: typeof perform): void => {
  const works = warmUpWork(data)
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) for (const work of works) {
    try {
      run(data, work)
    } catch {
      // A warm-up is a head start, not a check: the request that meets the failure reports it.
    }
  }
}
