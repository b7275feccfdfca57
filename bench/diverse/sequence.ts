/**
 * Single executions: `paths` sent one after the other on one kept-alive connection, each once, for
 * at most `duration` seconds. With the response cache off every answer is an execution, and with
 * nothing else in flight its latency is the query's own cost plus the HTTP round trip.
 *
 * The connection is opened by one unrecorded `GET /healthz`, as the probe's is (`probe.ts`): a
 * family's first requests measure the route's first use (issue 24 item 6), not the TCP handshake
 * and the server's first parse on a new socket, which cost a bare `node:http` server 1–5 ms too.
 */
import { PerformanceObserver } from "node:perf_hooks"
import { onOwnServer } from "./httpGet.ts"
import { RawConnection } from "./rawConnection.ts"
import { startOrderedThread } from "./thread.ts"

export interface Executed {
  readonly path: string
  readonly status: number
  readonly bytes: number
  readonly ms: number
  /** This thread's own collections during the request (their time is the client's, not the server's). */
  readonly clientGcMs: number
}

/** A sequence's answers in the order sent, one entry per request: as the sequences' thread posts them. */
export interface Timed {
  readonly statuses: Int32Array
  /** Body bytes. */
  readonly bytes: Float64Array
  readonly ms: Float64Array
  /** This thread's own collections during each request. */
  readonly clientGcMs: Float64Array
}

/** `timed`'s answers beside the paths they were sent. */
export const executedOf = (paths: Paths, timed: Timed): Array<Executed> =>
  Array.from(timed.statuses, (status, i) => ({ path: paths.at(i) ?? "", status, bytes: timed.bytes[i], ms: timed.ms[i], clientGcMs: timed.clientGcMs[i] }))

/** Paths read by place: an array, or `PackedPaths`. */
export interface Paths {
  readonly length: number
  readonly at: (index: number) => string | undefined
}

/**
 * Paths in one UTF-8 buffer, each ending at its entry of `ends`: how an order brings its paths to the
 * sequences' thread (two arrays outside its heap, whatever their number). Posted as strings, a family's 100 000 paths
 * were 100 000 strings in that thread's young generation, which its first collections copied while the
 * family's first requests were being timed (the record family's `#0`–`#3`: 3–9 ms of the client's own
 * collections in them). A path is decoded as it is sent.
 */
export class PackedPaths implements Paths {
  static readonly decoder = new TextDecoder()
  readonly bytes: Uint8Array
  readonly ends: Uint32Array

  constructor(bytes: Uint8Array, ends: Uint32Array) {
    this.bytes = bytes
    this.ends = ends
  }

  static of(paths: ReadonlyArray<string>): PackedPaths {
    const encoder = new TextEncoder()
    const encoded = paths.map((path) => encoder.encode(path))
    const ends = new Uint32Array(paths.length)
    let end = 0
    encoded.forEach((bytes, i) => (ends[i] = end += bytes.length))
    const bytes = new Uint8Array(end)
    encoded.forEach((path, i) => bytes.set(path, ends[i] - path.length))
    return new PackedPaths(bytes, ends)
  }

  get length(): number {
    return this.ends.length
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.ends.length) return undefined
    return PackedPaths.decoder.decode(this.bytes.subarray(index === 0 ? 0 : this.ends[index - 1], this.ends[index]))
  }
}

/** Something to do between two requests, once `requests` have been answered (its time is not any request's). */
export interface Pause {
  readonly requests: number
  readonly run: () => Promise<void>
}

/** What opens the connection, unrecorded. */
const OPENING_PATH = "/healthz"

/**
 * Compiles the single executions' client before the thread times anything: `runSequence` itself,
 * `requests` GETs of both framings to a server of the thread's own (`onOwnServer`), none to the
 * server measured. The whole loop, not its connection alone: with the connection alone warmed, V8
 * compiled `runSequence` itself around the 23rd request of a thread's first sequence (against the
 * bare server, 12 first sequences of 12 over 3× their warm p99).
 */
export const warmSequence = (requests: number): Promise<void> =>
  onOwnServer(async (url) => {
    await runSequence(url, PackedPaths.of(Array.from({ length: requests }, (_, i) => (i % 2 === 0 ? "/" : "/?chunked"))), 3_600)
  })

/** How long the sequences' thread waits, once its client is compiled again, for V8's compile jobs to end. */
const COMPILE_SETTLE_MS = 30

/**
 * What the sequences' thread does before each sequence: collects its whole heap, then runs its
 * client again (`warm`: requests to a server of its own, none to the server measured) and waits for
 * V8's compile jobs to end. The collection, so that no collection of the client's falls inside a
 * family's first requests: with its young generation alone emptied (6b93eaf), 3 to 5 of each run's
 * 21 first uses held one of 1.6–8.0 ms (plain extract); with the whole heap, none. The warm-up,
 * because a full collection clears what the optimised code of Node's sockets and streams holds
 * weakly of the last sequence's connection ("embedded weak objects cleared" under `--trace-deopt`:
 * `writeOrBuffer`, `onwrite`, `onStreamRead`…): without it that code ran in the interpreter again
 * until V8 recompiled it on one of its threads around every sequence's 30th request, and against
 * the bare `node:http` server 14 of 15 sequences had a first 50 over 3× the warm p99 (#30 in 10 of
 * them; a Python client against the same server, none). With it, and the answers' arrays made
 * before the collection (`Answers`), none of 25 (their warm runs of 50 fail 5.5 %).
 */
export const prepareClient = async (warm: () => Promise<void>, settleMs = COMPILE_SETTLE_MS): Promise<void> => {
  globalThis.gc?.()
  await warm()
  await new Promise((resolve) => setTimeout(resolve, settleMs))
}

/**
 * What a sequence keeps of each answer, in typed arrays outside the heap so that the thread's young
 * collections do not copy them while later requests are timed. The sequences' thread keeps one set,
 * grown to its longest sequence yet (`holding`) before it collects its heap: made by the sequence
 * itself, the arrays for the bare server's million paths (28 MB outside the heap) started a major
 * collection of the client's that ended among the first 50 requests, and the first sequence of
 * each fresh thread failed the first-use rule (10 of 12 against the bare server).
 */
export class Answers {
  readonly statuses: Int32Array
  readonly bytes: Float64Array
  readonly starts: Float64Array
  readonly times: Float64Array

  constructor(length: number) {
    this.statuses = new Int32Array(length)
    this.bytes = new Float64Array(length)
    this.starts = new Float64Array(length)
    this.times = new Float64Array(length)
  }

  /** These when they hold `length` answers, else new ones that do. */
  holding(length: number): Answers {
    return this.statuses.length >= length ? this : new Answers(length)
  }
}

export const runSequence = async (
  baseUrl: string,
  paths: Paths,
  duration: number,
  pause?: Pause,
  answers: Answers = new Answers(paths.length)
): Promise<Timed> => {
  const connection = new RawConnection(new URL(baseUrl))
  const deadline = performance.now() + duration * 1000
  const { statuses, bytes, starts, times } = answers.holding(paths.length)
  let answered = 0
  const collections: Array<{ readonly start: number; readonly end: number }> = []
  const note = (entries: ReadonlyArray<{ readonly startTime: number; readonly duration: number }>) => {
    for (const entry of entries) collections.push({ start: entry.startTime, end: entry.startTime + entry.duration })
  }
  const observer = new PerformanceObserver((list) => note(list.getEntries()))
  observer.observe({ entryTypes: ["gc"] })
  // The thread's young generation emptied before anything is timed (the bench runs with
  // `--expose-gc`), so that a family's first requests do not meet one of the client's scavenges.
  // Its whole heap is collected before, by the sequences' thread, with the client compiled again
  // after it (`prepareClient`).
  globalThis.gc?.({ type: "minor" })
  try {
    await connection.get(OPENING_PATH)
    while (answered < paths.length && performance.now() < deadline) {
      starts[answered] = performance.now()
      const answer = await connection.get(paths.at(answered) ?? "")
      statuses[answered] = answer.status
      bytes[answered] = answer.bytes
      times[answered] = answer.ms
      answered++
      if (answered === pause?.requests) await pause.run()
    }
  } finally {
    connection.close()
    // Node queues a collection's entry in a task after it: one turn, then what is not yet delivered.
    await new Promise((resolve) => setImmediate(resolve))
    note(observer.takeRecords())
    observer.disconnect()
  }
  const clientGcMs = Float64Array.from({ length: answered }, (_, i) => overlap(collections, starts[i], starts[i] + times[i]))
  return { statuses: statuses.slice(0, answered), bytes: bytes.slice(0, answered), ms: times.slice(0, answered), clientGcMs }
}

/** How long `spans` cover of `[from, to)`. */
const overlap = (spans: ReadonlyArray<{ readonly start: number; readonly end: number }>, from: number, to: number): number => {
  let ms = 0
  for (const { start, end } of spans) ms += Math.max(0, Math.min(end, to) - Math.max(start, from))
  return ms
}

/** What the sequences' thread is told (`sequenceWorker.ts`): a sequence to run, or to go on after its pause. */
export type SequenceOrder =
  | { readonly kind: "run"; readonly baseUrl: string; readonly bytes: Uint8Array; readonly ends: Uint32Array; readonly duration: number; readonly pauseAt?: number }
  | { readonly kind: "go on" }

/** What it posts: paused after `pauseAt` answers, then the sequence's answers in order. */
export type SequenceMessage =
  | { readonly kind: "paused" }
  | ({ readonly kind: "done" } & Timed)

export interface SequenceThread {
  /**
   * `runSequence` on the thread, the pause run here; one sequence at a time. The paths come packed
   * (`PackedPaths.of`) by the caller, before it starts what it measures: packing a family's 100 000
   * paths just before its first request left its garbage to be collected while that request ran.
   * The calling thread's heap is collected whole before the order goes (with `--expose-gc`): that
   * thread holds every family's corpus and makes garbage between two sequences (the last one's
   * answers, its summary, the metrics read at its pause); a major collection of it begun then went
   * on while the next sequence was timed, on the cores the server and the timing thread share (a
   * scratch corpus's main thread ran 40–110 ms at some families' start, sampled from `/proc`).
   */
  readonly run: (baseUrl: string, paths: PackedPaths, duration: number, pause?: Pause) => Promise<Array<Executed>>
  readonly close: () => Promise<void>
}

/**
 * A thread that times sequences for the bench's single executions, so that the bench's own
 * collections are not in them (`sequenceWorker.ts`).
 */
export const startSequenceThread = (): SequenceThread => {
  const thread = startOrderedThread<SequenceOrder>(new URL("./sequenceWorker.ts", import.meta.url))
  return {
    run: async (baseUrl, paths, duration, pause) => {
      const { bytes, ends } = paths
      globalThis.gc?.()
      const order: SequenceOrder = { kind: "run", baseUrl, bytes, ends, duration, ...(pause === undefined ? {} : { pauseAt: pause.requests }) }
      const done = await thread.ask<Extract<SequenceMessage, { kind: "done" }>>(order, (message, fail) => {
        if ((message as SequenceMessage).kind !== "paused") return false
        pause?.run().then(() => thread.tell({ kind: "go on" }), fail)
        return true
      })
      return executedOf(paths, done)
    },
    close: thread.close
  }
}
