/**
 * The body of a query worker thread: waits for the Dataset the main thread shares (rebuilt on the
 * same memory, no copy), tells the pool it is ready, then answers executions one at a time (see
 * `QueryPool.ts`, `protocol.ts`). `run` is the real `perform` (`work.ts`) in `queryWorker.ts`; tests wrap it.
 */
import type { DatasetData } from "@equides/domain"
import { prepareQueries } from "@equides/domain/answers"
import { attachDataset } from "@equides/ingest/shared"
import { parentPort } from "node:worker_threads"
import type { Reply, Request } from "./protocol.ts"
import { youngCollectionDue, type YoungCollectionDue } from "./youngCollectionDue.ts"
import { type perform, warmUp } from "./work.ts"

/**
 * A young-generation collection after an answer, when the process exposes `gc` (`main.ts` starts
 * with `--expose-gc`, `processSettings.ts`): a query's bitsets (0.55 MiB each at 4.45 M rows) and row lists die
 * with it, but their memory is returned only when their small wrappers are collected, and V8 waits
 * for tens of MiB of such memory before it collects on its own, in every thread. It runs after the
 * reply is sent, and only once the answers since the last one have left `YOUNG_COLLECTION_EXTERNAL_BYTES`
 * (`youngCollectionDue.ts`): a collection takes 0.2–0.3 ms in a worker whatever little there is
 * to collect, more than a cheap execution (`/v1/stats`, a mating) takes, and collecting after
 * each answer held the workers in collections 40–70 % of the time under those (docs/performance.md).
 * Some took 5–40 ms (the query workers at nice 10 then, `threadPriority.ts`); the pool
 * is told, through the `collectingYoung` cell, not to wait for it when another worker is free.
 */
const collectYoung = globalThis.gc === undefined ? undefined : () => globalThis.gc?.({ type: "minor" })

/**
 * A full collection after the warm-up: its passes over the registry (a genetics pass alone leaves
 * an array of 8 bytes a record) are garbage that no scavenge reaches once the warm-up's many
 * allocations have promoted them, and an idle worker would hold them until its next full collection.
 */
const collectAll = globalThis.gc === undefined ? undefined : () => globalThis.gc?.()

/**
 * `collect`: what the pool's `collect` request runs (a full collection, when the process exposes
 * `gc`; tests give another). The pool asks for it once this worker has been idle a while
 * (`QueryPool.ts`) and sends it nothing meanwhile. `collectAfterAnswer`: what runs after an
 * answer when `due` says so (the young collection once enough external memory is left; tests give others).
 */
export const serveQueries = (
  run: typeof perform,
  collect: () => void = () => collectAll?.(),
  collectAfterAnswer: (() => void) | undefined = collectYoung,
  due: YoungCollectionDue = youngCollectionDue()
): void => {
  const port = parentPort
  if (port === null) throw new Error("a query worker runs as a worker thread")
  const reply = (message: Reply, transfer?: ReadonlyArray<ArrayBuffer>): void => port.postMessage(message, transfer)
  let data: DatasetData | undefined
  let collectingYoung: Int32Array = new Int32Array(1)

  port.on("message", (request: Request) => {
    if (request.kind === "collect") {
      collect()
      due.collected()
      reply({ kind: "collected" })
      return
    }
    if (request.kind === "attach") {
      data = attachDataset(request.share)
      collectingYoung = request.collectingYoung
      prepareQueries(data)
      // Every family before the pool says ready (and so before `/readyz` does), each work as a
      // request's reaches this thread: copied by `postMessage` (objects of the shapes it makes).
      warmUp(data, (attached, work) => run(attached, structuredClone(work)))
      collectAll?.()
      due.collected()
      reply({ kind: "ready" })
      return
    }
    const { id, work } = request
    let outcome
    const started = performance.now()
    try {
      if (data === undefined) throw new Error("an execution before the Dataset was attached")
      outcome = run(data, work)
    } catch (error) {
      reply({ kind: "defect", id, message: error instanceof Error ? error.stack ?? error.message : String(error) })
      return
    }
    const ms = performance.now() - started
    const collecting = collectAfterAnswer !== undefined && due.now()
    // Set before the answer leaves: the pool may read the cell as soon as it has the answer.
    if (collecting) Atomics.store(collectingYoung, 0, 1)
    if (outcome.kind === "body") reply({ kind: "body", id, status: outcome.status, body: outcome.body, ms }, [outcome.body.buffer as ArrayBuffer])
    else if (outcome.kind === "refused") reply({ kind: "refused", id, refusal: outcome.refusal, ms })
    else reply({ ...outcome, id })
    if (!collecting) return
    collectAfterAnswer()
    due.collected()
    Atomics.store(collectingYoung, 0, 0)
  })
}
