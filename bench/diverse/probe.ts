/**
 * Probe latency while the load runs: a thread GETs the probe URL at a steady pace (one request
 * every `intervalMs`, on its own connection, as an orchestrator's probe would) until stopped.
 */
import { percentile } from "../load.ts"
import { startThread } from "./thread.ts"

export interface ProbeRequest {
  readonly url: string
  readonly intervalMs: number
  /** The probe's own source address (another caller to the quota); the system's choice when absent. */
  readonly localAddress?: string
}

export interface ProbeReport {
  /** Every probe's latency in milliseconds, in the order sent. */
  readonly latencies: Float64Array
  /** Probes answered with another status than 200, or not answered. */
  readonly failures: number
}

export interface ProbeSummary {
  readonly probes: number
  readonly failures: number
  /** Milliseconds. */
  readonly p50: number
  readonly p99: number
  readonly max: number
}

export const summarizeProbes = (report: ProbeReport): ProbeSummary => {
  const sorted = Float64Array.from(report.latencies).sort()
  return {
    probes: sorted.length,
    failures: report.failures,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]
  }
}

export interface RunningProbe {
  /** Stops probing and gives what was measured. */
  readonly stop: () => Promise<ProbeSummary>
}

/** Starts probing; settles once the first (unrecorded) probe is answered, so the load can begin. */
export const startProbe = async (request: ProbeRequest): Promise<RunningProbe> => {
  const thread = await startThread<ProbeReport>(new URL("./probeWorker.ts", import.meta.url), request)
  return { stop: async () => summarizeProbes(await thread.stop()) }
}
