/**
 * The bench's measuring threads, so that what they measure is not delayed by the main thread's work
 * (its corpora, its collections), nor the main thread's by them. Two kinds: one started with its
 * data, which posts "ready" once under way, then, told to stop, its report (the probe, the fairness
 * bench's loaded caller); and one that answers orders one at a time (`startOrderedThread`: the
 * sequences, the fairness bench's measured caller).
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

export interface OrderedThread<Order> {
  /**
   * Posts `order` and settles with the thread's answer: the first message `interim` does not take
   * (it sees each message first and says true of one sent on the way, which it may answer with
   * `tell`, or `fail`). The thread failing or ending meanwhile rejects it. One order at a time.
   */
  readonly ask: <A>(order: Order, interim?: (message: unknown, fail: (error: Error) => void) => boolean) => Promise<A>
  readonly tell: (message: Order) => void
  readonly close: () => Promise<void>
}

/** A thread that answers orders one at a time (the sequences' thread, the fairness bench's measured caller). */
export const startOrderedThread = <Order>(script: URL): OrderedThread<Order> => {
  const worker = new Worker(script)
  let failed: ((error: Error) => void) | undefined
  worker.on("error", (error) => failed?.(error))
  worker.once("exit", (code) => failed?.(new Error(`the thread ${script.pathname} ended (code ${code})`)))
  return {
    ask: <A>(order: Order, interim?: (message: unknown, fail: (error: Error) => void) => boolean) =>
      new Promise<A>((resolve, reject) => {
        failed = reject
        const onMessage = (message: unknown) => {
          if (interim?.(message, reject) === true) return
          worker.off("message", onMessage)
          failed = undefined
          resolve(message as A)
        }
        worker.on("message", onMessage)
        worker.postMessage(order)
      }),
    tell: (message) => worker.postMessage(message),
    close: async () => {
      failed = undefined
      await worker.terminate()
    }
  }
}
