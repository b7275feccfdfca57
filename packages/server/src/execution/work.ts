/**
 * What the `Executor` runs, in the server's thread (`WORKERS=0`) or on a query worker: an API
 * execution (`answer` of `@equides/domain/answers`: JSON, or the parameter it refuses) or an
 * explorer page (`renderPage`: HTML with its status). `perform` is the one function both places
 * call, so both make the same bytes. A new kind of work is one member of `Execution` (or of
 * `PageExecution`) and one case of `answer` (or of `renderPage`).
 */
import type { DatasetData } from "@equides/domain"
import { answer, type Execution } from "@equides/domain/answers"
import { Result } from "effect"
import { type PageExecution, renderPage } from "../explorer/pages.ts"
import type { Refusal } from "./protocol.ts"

export type Work = Execution | PageExecution

export type Outcome =
  | { readonly kind: "body"; readonly status: number; readonly body: Uint8Array }
  | { readonly kind: "refused"; readonly refusal: Refusal }
  | { readonly kind: "defect"; readonly message: string }

export const isPage = (work: Work): work is PageExecution => "page" in work

/** The route family a work belongs to (metrics, tests): an endpoint's name, or `explorer/<page>`. */
export const familyOf = (work: Work): string => (isPage(work) ? `explorer/${work.page}` : work.endpoint)

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
