/**
 * The loaded caller of the fairness bench: the most expensive requests over many connections from
 * an address of its own, each connection sending the next path as soon as its last answer is in.
 * A refusal (429) is waited out for its `Retry-After` on that connection, as a well-behaved client
 * does, unless the caller floods (`--flood`): then it sends on at once and only the server's quota
 * holds it back, the refusals' own cost included. It runs
 * on a thread of its own (loadedWorker.ts), so that its client work does not delay the measured
 * caller's timings on the main thread.
 */
import { percentile } from "../load.ts"
import { startThread } from "../diverse/thread.ts"

export interface LoadRequest {
  readonly baseUrl: string
  /** Sent in turn over the connections, from the first again when all have been sent. */
  readonly paths: ReadonlyArray<string>
  readonly connections: number
  readonly localAddress: string
  /** A connection refused (429) waits its `Retry-After` before sending again; false: it floods. */
  readonly honoursRetryAfter: boolean
}

export interface LoadReport {
  /** From the start of the load to the stop. */
  readonly seconds: number
  /** Answers received before the stop, per status (0: no answer). */
  readonly statuses: Readonly<Record<string, number>>
  /** Milliseconds of the 200s, in the order received. */
  readonly latencies: Float64Array
}

export interface LoadSummary {
  readonly seconds: number
  readonly statuses: Readonly<Record<string, number>>
  readonly okPerSecond: number
  readonly tooManyPerSecond: number
  /** Answers neither 200 nor 429 (status 0: none), per second. */
  readonly otherPerSecond: number
  /** Milliseconds, over the 200s. */
  readonly p50: number
  readonly p99: number
}

export const summarizeLoad = (report: LoadReport): LoadSummary => {
  const sorted = Float64Array.from(report.latencies).sort()
  const count = (status: string) => report.statuses[status] ?? 0
  const total = Object.values(report.statuses).reduce((sum, n) => sum + n, 0)
  const perSecond = (n: number) => report.seconds > 0 ? n / report.seconds : 0
  return {
    seconds: report.seconds,
    statuses: report.statuses,
    okPerSecond: perSecond(count("200")),
    tooManyPerSecond: perSecond(count("429")),
    otherPerSecond: perSecond(total - count("200") - count("429")),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99)
  }
}

export interface RunningLoad {
  readonly stop: () => Promise<LoadSummary>
}

/** Starts the load; settles once its first answer is in. */
export const startLoad = async (request: LoadRequest): Promise<RunningLoad> => {
  const thread = await startThread<LoadReport>(new URL("./loadedWorker.ts", import.meta.url), request)
  return { stop: async () => summarizeLoad(await thread.stop()) }
}
