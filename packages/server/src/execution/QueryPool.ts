/**
 * A pool of query worker threads over one shared Dataset (`@equides/ingest/shared`): executions
 * wait in a fair queue (`fairQueue.ts`: per caller, the callers in turn) and each worker runs one
 * at a time, so that a worker is never handed a second query while the first keeps it busy, and a
 * query still waiting can be withdrawn (its client gone, or its deadline passed).
 *
 * Heavy executions (their route declares `HEAVY_EXECUTION_MS` or more, `requester.ts`) hold at most
 * all threads but one when there are two or more: a light execution (a list, a record's page) then
 * always finds a thread free or running light work, never only executions of up to a second.
 * A light execution never waits for a heavy one while a thread is free.
 *
 * Two steps, so that starting the threads (a second or so: each loads Effect and the domain) overlaps
 * the data load: `prepare` starts them, `attach` hands them the Dataset once it is in memory.
 * A worker that dies (a crash, memory exhausted) fails the execution it held and is replaced: at
 * once when it had served, after a delay doubled at each death in a row when it died before it
 * was ready (its code or the Dataset's attachment fails: a new thread would fail alike, and
 * replacing it at once would spin forever).
 *
 * Hand-written on `node:worker_threads` rather than `effect/workers`: Effect 4.1's module offers a
 * worker's send/receive primitives (no pool, no request correlation), and its RPC worker pool
 * encodes every message through a schema; here a job is a structured clone and a body a transferred
 * buffer. Nor on `piscina`, as fast here: withdrawing a task it has started terminates the worker, and
 * a worker's data is fixed when it starts (docs/decisions.md).
 */
import type { DatasetShare } from "@equides/ingest/shared"
import { Worker } from "node:worker_threads"
import { FairQueue } from "./fairQueue.ts"
import type { Reply, Request } from "./protocol.ts"
import { ANONYMOUS, type Requester } from "./requester.ts"
import type { Outcome, Work } from "./work.ts"

/** An execution submitted to the pool. */
export interface Ticket {
  readonly id: number
  readonly caller: string
  readonly heavy: boolean
  readonly work: Work
  /** `ms`: the run's time in the worker (undefined when it did not end: a defect, a dead worker). */
  readonly done: (outcome: Outcome, ms: number | undefined) => void
  /** Withdrawn: never started, or its outcome is no longer wanted. */
  cancelled: boolean
}

interface Thread {
  readonly worker: Worker
  /** Settled once the worker has attached the Dataset (or failed to start). */
  readonly ready: Promise<void>
  /** It has attached the Dataset. */
  served: boolean
  job: Ticket | undefined
  /** Cancels the full collection set for when it has been idle `IDLE_COLLECTION_MS`. */
  cancelCollection: (() => void) | undefined
  /** Idle long enough, its collection waits for another thread's to end. */
  due: boolean
  /** Shared with the worker: 1 while it collects its young generation after an answer (`protocol.ts`). */
  readonly collectingYoung: Int32Array
}

/** Runs `start` in `delayMs`; the function returned cancels it. */
export type Scheduler = (start: () => void, delayMs: number) => () => void

const afterDelay: Scheduler = (start, delayMs) => {
  const timer = setTimeout(start, delayMs)
  // A replacement waiting does not keep the process alive.
  timer.unref()
  return () => clearTimeout(timer)
}

/** The delay before replacing a worker that died before it was ready, doubled at each such death in a row up to the last. */
export const RESPAWN_DELAY_MS = { first: 100, last: 30_000 } as const

/** The module a worker runs, and its `workerData`. */
export interface WorkerSpec {
  readonly url: URL
  readonly data?: Readonly<Record<string, unknown>>
}

export const QUERY_WORKER: WorkerSpec = { url: new URL("./queryWorker.ts", import.meta.url) }

/**
 * A worker idle this long is asked for a full collection: what load leaves in its old generation
 * (promoted query buffers, dropped breed columns) is otherwise held until V8's next major
 * collection, which an idle worker does not reach (issue 24: resident memory after load). The
 * pool asks, one worker at a time, and sends the one collecting nothing until it is done: a
 * worker that collected on its own timer took the next execution into its pause (41–56 ms at
 * 4.45 M records, both workers at once, 2 s after the same last burst), and the pool handed that
 * execution to it, the thread idle longest.
 */
const IDLE_COLLECTION_MS = 2_000

/**
 * A query worker's young generation, at most (V8 lets a worker's grow to 32 MiB under the churn of
 * a query's row lists and objects, and keeps it). A query's large buffers (bitsets, row arrays) are
 * outside the heap; what it allocates on the heap is small, and collected after each answer.
 */
const QUERY_YOUNG_GENERATION_MB = 8

export class QueryPool {
  private readonly threads = new Set<Thread>()
  private readonly idle: Array<Thread> = []
  private readonly waiting = new FairQueue<Ticket>()
  private nextId = 0
  private closing = false
  private share: DatasetShare | undefined
  private readonly spec: WorkerSpec
  private readonly schedule: Scheduler
  private readonly scheduleCollection: Scheduler
  /** The thread doing its full collection, if one is. */
  private collecting: Thread | undefined
  /** Workers that died before they were ready since one last was. */
  private failedStarts = 0
  private readonly pendingStarts = new Set<() => void>()
  /** Workers started to replace one that died (the `equides_query_worker_restarts_total` counter). */
  restarts = 0

  private constructor(spec: WorkerSpec, schedule: Scheduler, scheduleCollection: Scheduler) {
    this.spec = spec
    this.schedule = schedule
    this.scheduleCollection = scheduleCollection
  }

  /**
   * `size` threads started now, loading their code; they serve once `attach` has given them a
   * Dataset. `schedule`: how a delayed replacement is timed, `scheduleCollection` an idle worker's
   * collection (tests run them by hand).
   */
  static prepare(size: number, spec: WorkerSpec = QUERY_WORKER, schedule: Scheduler = afterDelay, scheduleCollection: Scheduler = afterDelay): QueryPool {
    const pool = new QueryPool(spec, schedule, scheduleCollection)
    for (let i = 0; i < size; i++) pool.spawn()
    return pool
  }

  /** Hands every thread the Dataset; resolves when all are ready, rejects if one could not start. */
  async attach(share: DatasetShare): Promise<void> {
    this.share = share
    for (const thread of this.threads) this.post(thread, { kind: "attach", share, collectingYoung: thread.collectingYoung })
    await Promise.all([...this.threads].map((thread) => thread.ready))
  }

  /** Executions waiting for a worker. */
  get queued(): number {
    return this.waiting.size
  }

  /** Workers executing. */
  get busy(): number {
    let busy = 0
    for (const thread of this.threads) if (thread.job !== undefined) busy++
    return busy
  }

  /** Workers executing a heavy execution. */
  get heavyBusy(): number {
    let heavy = 0
    for (const thread of this.threads) if (thread.job?.heavy === true) heavy++
    return heavy
  }

  get size(): number {
    return this.threads.size
  }

  /** `work` for `requester` (its caller's turn, its lane), run as soon as the queue's turn and the lanes allow. */
  submit(work: Work, done: Ticket["done"], requester: Requester = ANONYMOUS): Ticket {
    const ticket: Ticket = { id: this.nextId++, caller: requester.caller, heavy: requester.heavy, work, done, cancelled: false }
    this.waiting.push(ticket)
    this.dispatch()
    return ticket
  }

  /** Withdraws a ticket: dropped from the queue if it waits, its outcome ignored if it runs. */
  cancel(ticket: Ticket): void {
    ticket.cancelled = true
    this.waiting.remove(ticket)
  }

  /** Stops every worker; executions in flight or waiting are not answered. */
  async close(): Promise<void> {
    this.closing = true
    this.waiting.clear()
    this.idle.length = 0
    for (const thread of this.threads) thread.cancelCollection?.()
    for (const cancel of this.pendingStarts) cancel()
    this.pendingStarts.clear()
    const threads = [...this.threads]
    this.threads.clear()
    await Promise.all(threads.map((thread) => thread.worker.terminate()))
  }

  private post(thread: Thread, request: Request): void {
    thread.worker.postMessage(request)
  }

  private spawn(): Thread {
    const worker = new Worker(this.spec.url, {
      resourceLimits: { maxYoungGenerationSizeMb: QUERY_YOUNG_GENERATION_MB },
      ...(this.spec.data === undefined ? {} : { workerData: this.spec.data })
    })
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }))
    // Awaited by `attach`; a worker replaced after a crash is awaited by nobody.
    ready.catch(() => undefined)
    const thread: Thread = {
      worker,
      ready,
      served: false,
      job: undefined,
      cancelCollection: undefined,
      due: false,
      collectingYoung: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
    }
    this.threads.add(thread)
    worker.on("message", (reply: Reply) => {
      if (reply.kind === "ready") {
        thread.served = true
        this.failedStarts = 0
        settle?.resolve()
        this.release(thread)
        return
      }
      if (reply.kind === "collected") {
        this.collecting = undefined
        this.release(thread)
        this.collectNextDue()
        return
      }
      const job = thread.job
      thread.job = undefined
      this.release(thread)
      this.armCollection(thread)
      if (job === undefined || job.cancelled || job.id !== reply.id) return
      if (reply.kind === "body") job.done({ kind: "body", status: reply.status, body: reply.body }, reply.ms)
      else if (reply.kind === "refused") job.done({ kind: "refused", refusal: reply.refusal }, reply.ms)
      else job.done({ kind: "defect", message: reply.message }, undefined)
    })
    worker.on("error", (error) => settle?.reject(error))
    worker.on("exit", (code) => {
      settle?.reject(new Error(`query worker exited with code ${code}`))
      if (!this.threads.delete(thread)) return
      const at = this.idle.indexOf(thread)
      if (at >= 0) this.idle.splice(at, 1)
      thread.cancelCollection?.()
      if (this.collecting === thread) {
        this.collecting = undefined
        this.collectNextDue()
      }
      const job = thread.job
      thread.job = undefined
      if (job !== undefined && !job.cancelled) job.done({ kind: "defect", message: `query worker exited with code ${code}` }, undefined)
      if (this.closing) return
      if (thread.served) this.replace()
      else {
        const delayMs = Math.min(RESPAWN_DELAY_MS.first * 2 ** this.failedStarts, RESPAWN_DELAY_MS.last)
        this.failedStarts++
        const cancel = this.schedule(() => {
          this.pendingStarts.delete(cancel)
          if (!this.closing) this.replace()
        }, delayMs)
        this.pendingStarts.add(cancel)
      }
      // The heavy lane counts the threads there are now: a heavy job gone frees a place in it, one thread left lifts it.
      this.dispatch()
    })
    return thread
  }

  /** A new worker in place of one that died, given the Dataset if the pool has it. */
  private replace(): void {
    this.restarts++
    const replacement = this.spawn()
    if (this.share !== undefined) this.post(replacement, { kind: "attach", share: this.share, collectingYoung: replacement.collectingYoung })
  }

  /** A worker free again: with the other idle ones, it takes what the queue allows. */
  private release(thread: Thread): void {
    this.idle.push(thread)
    this.dispatch()
  }

  /**
   * Idle workers take executions while the queue has one they may run: afterwards either no worker
   * is idle or every execution waiting is heavy and the heavy lane is full.
   */
  private dispatch(): void {
    while (this.idle.length > 0) {
      const ticket = this.waiting.take(this.heavyRoom())
      if (ticket === undefined) return
      this.run(this.takeIdle(), ticket)
    }
  }

  /**
   * The idle thread idle longest that is not collecting its young generation after its last answer,
   * or, when all are, the one idle longest (the execution waits in its port). The one idle longest
   * alone was usually done collecting, but not when its collection outlasted another worker's whole
   * execution: at 4.45 M records a request then waited 3–38 ms for a collection while the other
   * worker was free.
   */
  private takeIdle(): Thread {
    const free = this.idle.findIndex((thread) => Atomics.load(thread.collectingYoung, 0) === 0)
    return this.idle.splice(Math.max(free, 0), 1)[0]
  }

  /** Whether one more heavy execution may start: it would leave a thread free or running light work (any, with one thread). */
  private heavyRoom(): boolean {
    const threads = this.threads.size
    return threads < 2 || this.heavyBusy < threads - 1
  }

  private run(thread: Thread, ticket: Ticket): void {
    thread.cancelCollection?.()
    thread.cancelCollection = undefined
    thread.due = false
    thread.job = ticket
    this.post(thread, { kind: "execute", id: ticket.id, work: ticket.work })
  }

  /** After an execution: its full collection once it has been idle `IDLE_COLLECTION_MS` (`run` cancels it). */
  private armCollection(thread: Thread): void {
    thread.cancelCollection?.()
    thread.cancelCollection = this.scheduleCollection(() => {
      thread.cancelCollection = undefined
      thread.due = true
      this.collectNextDue()
    }, IDLE_COLLECTION_MS)
  }

  /** Starts the collection of an idle thread that is due one, unless a thread is collecting. */
  private collectNextDue(): void {
    if (this.collecting !== undefined || this.closing) return
    const thread = this.idle.find((candidate) => candidate.due)
    if (thread === undefined) return
    thread.due = false
    this.idle.splice(this.idle.indexOf(thread), 1)
    this.collecting = thread
    this.post(thread, { kind: "collect" })
  }
}
