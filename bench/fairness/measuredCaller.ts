/**
 * The measured caller of the fairness bench: varied list requests one after the other on one
 * kept-alive connection from its own address, paced within its quota (pacing.ts), for a duration.
 * A refusal (429) is counted and waited out (`Retry-After`), its latency not kept: the target is
 * about the lists served.
 */
import { setTimeout as sleep } from "node:timers/promises"
import { oneConnection, timedGet } from "../diverse/httpGet.ts"
import { startOrderedThread } from "../diverse/thread.ts"
import { Pacer, remainingOf } from "./pacing.ts"

export interface CallerRecord {
  /** Milliseconds of every 200, in the order sent. */
  readonly latencies: ReadonlyArray<number>
  /** Answers per status (0: no answer). */
  readonly statuses: Readonly<Record<string, number>>
  /** Paths sent (the caller's next phase starts after them, so that no URI is asked twice). */
  readonly sent: number
}

const header = (value: string | ReadonlyArray<string> | undefined): string | undefined => typeof value === "string" ? value : value?.join(", ")

export interface CallerOptions {
  readonly localAddress: string
  readonly rate: number
  readonly duration: number
}

export const measuredCaller = async (baseUrl: string, paths: ReadonlyArray<string>, options: CallerOptions): Promise<CallerRecord> => {
  const agent = oneConnection(options.localAddress)
  const pacer = new Pacer(options.rate)
  const deadline = performance.now() + options.duration * 1000
  const latencies: Array<number> = []
  const statuses: Record<string, number> = {}
  let sent = 0
  try {
    for (const path of paths) {
      if (performance.now() >= deadline) break
      const sentAt = performance.now()
      const answer = await timedGet(agent, baseUrl + path)
      sent++
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
      if (answer.status === 429) {
        pacer.refused()
        await sleep(1000 * Math.max(1, Number(header(answer.headers["retry-after"]) ?? 1)))
        continue
      }
      if (answer.status === 200) latencies.push(answer.ms)
      const remaining = remainingOf(header(answer.headers["ratelimit"]))
      const wait = remaining === undefined ? 0 : pacer.admitted(sentAt, remaining)
      if (wait > 0) await sleep(wait)
    }
  } finally {
    agent.destroy()
  }
  return { latencies, statuses, sent }
}

/** What the measured caller's thread is told (`measuredWorker.ts`): untimed requests one at a time, or a phase. */
export type CallerOrder =
  | { readonly kind: "warm"; readonly baseUrl: string; readonly paths: ReadonlyArray<string>; readonly duration: number }
  | { readonly kind: "measure"; readonly baseUrl: string; readonly paths: ReadonlyArray<string>; readonly options: CallerOptions }

export interface MeasuredCallerThread {
  /** `paths` one after the other, untimed (`runSequence`): the server's first uses and the thread's client warmed. */
  readonly warm: (baseUrl: string, paths: ReadonlyArray<string>, duration: number) => Promise<void>
  readonly measure: (baseUrl: string, paths: ReadonlyArray<string>, options: CallerOptions) => Promise<CallerRecord>
  readonly close: () => Promise<void>
}

/** The measured caller on a thread of its own, one order at a time. */
export const startMeasuredCaller = (): MeasuredCallerThread => {
  const thread = startOrderedThread<CallerOrder>(new URL("./measuredWorker.ts", import.meta.url))
  return {
    warm: (baseUrl, paths, duration) => thread.ask<void>({ kind: "warm", baseUrl, paths, duration }),
    measure: (baseUrl, paths, options) => thread.ask<CallerRecord>({ kind: "measure", baseUrl, paths, options }),
    close: thread.close
  }
}
