/**
 * A measuring thread of the bench (the probe, the fairness bench's loaded caller): started with its
 * data, it posts "ready" once under way, then, told to stop, posts its report. A thread of its own,
 * so that what it measures is not delayed by the main thread's work, nor the main thread's by it.
 */
import { Worker } from "node:worker_threads"

export interface RunningThread<Report> {
  /** Tells the thread to stop and gives its report. */
  readonly stop: () => Promise<Report>
}

/** Starts `script` with `data`; settles once it has posted "ready". */
export const startThread = async <Report>(script: URL, data: unknown): Promise<RunningThread<Report>> => {
  const worker = new Worker(script, { workerData: data })
  const messages: Array<(message: unknown) => void> = []
  worker.on("message", (message) => messages.shift()?.(message))
  const failed = new Promise<never>((_, reject) => worker.once("error", reject))
  const next = <A>() => Promise.race([new Promise<A>((resolve) => messages.push((message) => resolve(message as A))), failed])
  const ready = next<"ready">()
  const reported = next<Report>()
  await ready
  return {
    stop: async () => {
      worker.postMessage("stop")
      const report = await reported
      await worker.terminate()
      return report
    }
  }
}
