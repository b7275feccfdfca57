/** Messages between the query pool (`QueryPool.ts`) and its workers (`serveQueries.ts`). */
import type { DatasetShare } from "@equides/ingest/shared"
import type { Work } from "./work.ts"

export type Request =
  /**
   * The Dataset to serve: the first message a worker gets. `collectingYoung`: one cell of memory shared
   * with the pool, 1 from just before the worker posts an answer until its young collection after
   * that answer has ended (`serveQueries.ts`), so that the pool gives work to another idle worker meanwhile.
   */
  | { readonly kind: "attach"; readonly share: DatasetShare; readonly collectingYoung: Int32Array }
  | { readonly kind: "execute"; readonly id: number; readonly work: Work }
  /** A full collection now (the pool sends nothing else until the reply `collected`). */
  | { readonly kind: "collect" }

/** The fields of a refused parameter (an `InvalidParameter` loses its class on the way). */
export interface Refusal {
  readonly parametre: string
  readonly detail: string
  readonly indice?: string
}

export type Reply =
  /** The Dataset is attached: the worker takes executions. */
  | { readonly kind: "ready" }
  /** The body (JSON, or a page's HTML) and its status, its buffer transferred; `ms`, the run's time in the worker. */
  | { readonly kind: "body"; readonly id: number; readonly status: number; readonly body: Uint8Array; readonly ms: number }
  | { readonly kind: "refused"; readonly id: number; readonly refusal: Refusal; readonly ms: number }
  /** The full collection asked for is done: the worker takes executions again. */
  | { readonly kind: "collected" }
  /** The query threw: a bug, answered 500 and logged by the server. */
  | { readonly kind: "defect"; readonly id: number; readonly message: string }
