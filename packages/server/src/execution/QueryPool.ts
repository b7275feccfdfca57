/**
 * A pool of query worker threads over one shared Dataset (`@equides/ingest/shared`): executions
 * wait in one FIFO queue and each worker runs one at a time, so that a worker is never handed a
 * second query while the first keeps it busy, and a query still waiting can be withdrawn (its
 * client gone, or its deadline passed).
 *
 * A worker that dies (a crash, memory exhausted) fails the execution it held and is replaced.
 *
 * Hand-written on `node:worker_threads` rather than `effect/workers`: Effect 4.1's module offers a
 * worker's send/receive primitives (no pool, no request correlation), and its RPC worker pool
 * encodes every message through a schema; here a job is a structured clone and a body a transferred
 * buffer (docs/decisions.md).
 */
import type { DatasetShare } from "@equides/ingest/shared"
import type { Execution } from "@equides/domain/answers"
import { Worker } from "node:worker_threads"
import type { Refusal, Reply, WorkerData } from "./protocol.ts"

export type Outcome =
  | { readonly kind: "body"; readonly body: Uint8Array }
  | { readonly kind: "refused"; readonly refusal: Refusal }
  | { readonly kind: "defect"; readonly message: string }

/** An execution submitted to the pool. */
export interface Ticket {
  readonly id: number
  readonly execution: Execution
  readonly done: (outcome: Outcome) => void
  /** Withdrawn: never started, or its outcome is no longer wanted. */
  cancelled: boolean
}

interface Thread {
  readonly worker: Worker
  job: Ticket | undefined
}

/** The module a worker runs, and what its `workerData` carries besides the share. */
export interface WorkerSpec {
  readonly url: URL
  readonly data?: Readonly<Record<string, unknown>>
}

export const QUERY_WORKER: WorkerSpec = { url: new URL("./queryWorker.ts", import.meta.url) }

export class QueryPool {
  private readonly threads = new Set<Thread>()
  private readonly idle: Array<Thread> = []
  private queue: Array<Ticket> = []
  private head = 0
  private nextId = 0
  private closing = false
  private readonly workerData: WorkerData & Readonly<Record<string, unknown>>
  private readonly url: URL

  private constructor(share: DatasetShare, spec: WorkerSpec) {
    this.workerData = { ...spec.data, share }
    this.url = spec.url
  }

  /** A pool of `size` workers, each ready (its Dataset attached) when the promise resolves. */
  static async start(share: DatasetShare, size: number, spec: WorkerSpec = QUERY_WORKER): Promise<QueryPool> {
    const pool = new QueryPool(share, spec)
    await Promise.all(Array.from({ length: size }, () => pool.spawn()))
    return pool
  }

  /** Executions waiting for a worker. */
  get queued(): number {
    return this.queue.length - this.head
  }

  /** Workers executing. */
  get busy(): number {
    return this.threads.size - this.idle.length
  }

  get size(): number {
    return this.threads.size
  }

  submit(execution: Execution, done: (outcome: Outcome) => void): Ticket {
    const ticket: Ticket = { id: this.nextId++, execution, done, cancelled: false }
    const thread = this.idle.pop()
    if (thread === undefined) this.queue.push(ticket)
    else this.run(thread, ticket)
    return ticket
  }

  /** Withdraws a ticket: dropped from the queue if it waits, its outcome ignored if it runs. */
  cancel(ticket: Ticket): void {
    ticket.cancelled = true
  }

  /** Stops every worker; executions in flight or waiting are not answered. */
  async close(): Promise<void> {
    this.closing = true
    this.queue = []
    this.head = 0
    await Promise.all([...this.threads].map((thread) => thread.worker.terminate()))
    this.threads.clear()
    this.idle.length = 0
  }

  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.url, { workerData: this.workerData })
      const thread: Thread = { worker, job: undefined }
      let ready = false
      worker.on("message", (reply: Reply) => {
        if (reply.kind === "ready") {
          ready = true
          this.threads.add(thread)
          this.release(thread)
          resolve()
          return
        }
        const job = thread.job
        thread.job = undefined
        this.release(thread)
        if (job === undefined || job.cancelled || job.id !== reply.id) return
        job.done(reply.kind === "body" ? { kind: "body", body: reply.body } : reply.kind === "refused" ? { kind: "refused", refusal: reply.refusal } : { kind: "defect", message: reply.message })
      })
      worker.on("error", (error) => {
        if (!ready) reject(error)
      })
      worker.on("exit", (code) => {
        if (!ready) {
          reject(new Error(`query worker exited with code ${code} before it was ready`))
          return
        }
        this.threads.delete(thread)
        const at = this.idle.indexOf(thread)
        if (at >= 0) this.idle.splice(at, 1)
        const job = thread.job
        thread.job = undefined
        if (job !== undefined && !job.cancelled) job.done({ kind: "defect", message: `query worker exited with code ${code}` })
        if (!this.closing) {
          this.spawn().catch(() => {
            // A worker that cannot be replaced leaves the pool smaller; the others keep serving.
          })
        }
      })
    })
  }

  /** A worker free again: it takes the next execution still wanted, or waits. */
  private release(thread: Thread): void {
    while (this.head < this.queue.length) {
      const next = this.queue[this.head++]
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head)
        this.head = 0
      }
      if (!next.cancelled) {
        this.run(thread, next)
        return
      }
    }
    this.idle.push(thread)
  }

  private run(thread: Thread, ticket: Ticket): void {
    thread.job = ticket
    thread.worker.postMessage({ id: ticket.id, execution: ticket.execution })
  }
}
