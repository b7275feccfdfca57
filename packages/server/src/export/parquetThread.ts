/**
 * The Parquet file written in a thread of its own (issue 30, item 4), started for that one write
 * and ended with it: the writer's memory (each row group's buffers, the compressor's, the heap the
 * collector grew for them: about 430 MiB at 4.45 M records) goes back to the system with the
 * thread, where a query worker that wrote it kept it for the server's lifetime. The thread reads
 * the columns the server serves (the Dataset's share, no copy when it is already shared), and runs
 * at the lowest priority, below the requests' threads (`threadPriority.ts`), so that the write takes
 * what the requests leave of the cores.
 *
 * What its `workerData` holds (`ParquetJob`) and what it answers (`ParquetReply`) are here; its
 * entry point is `parquetWorker.ts`.
 */
import type { DatasetData } from "@equides/domain"
import { attachDataset, type DatasetShare, shareDataset } from "@equides/ingest/shared"
import { constants } from "node:os"
import { parentPort, Worker, workerData } from "node:worker_threads"
import { giveWayToMainThread } from "../execution/threadPriority.ts"
import type { Registry } from "../telemetry.ts"
import { writeParquet } from "./parquet.ts"

/** What the thread writes: the Dataset's share, to `path`. */
export interface ParquetJob {
  readonly share: DatasetShare
  readonly path: string
}

/** The thread's one message: the file is written, or why not. */
export type ParquetReply = { readonly kind: "written" } | { readonly kind: "failed"; readonly message: string }

export const PARQUET_WORKER = new URL("./parquetWorker.ts", import.meta.url)

/** Below the query workers' (`PRIORITY_BELOW_NORMAL`): the write gives way to every request. */
const PARQUET_THREAD_NICE = constants.priority.PRIORITY_LOW

/** A write's thread, and the promise settled once it has exited: resolved when it wrote the file, rejected with why not. */
export interface ParquetThread {
  readonly thread: Worker
  readonly done: Promise<void>
}

/** Starts the thread writing `share`'s Dataset to `path` (`url`: its entry point; tests give failing ones). */
export const startParquetThread = (share: DatasetShare, path: string, url: URL = PARQUET_WORKER): ParquetThread => {
  const job: ParquetJob = { share, path }
  const thread = new Worker(url, { workerData: job })
  const done = new Promise<void>((resolve, reject) => {
    let written = false
    let failure: Error | undefined
    thread.on("message", (reply: ParquetReply) => {
      if (reply.kind === "written") written = true
      else failure = new Error(`the Parquet file ${path} was not written: ${reply.message}`)
    })
    // A throw outside the write (the thread's code failed to load): the exit follows.
    thread.on("error", (error) => (failure ??= error))
    // Settled on exit, not on the message: the thread's memory is given back by then.
    thread.on("exit", (code) => {
      if (written && code === 0) resolve()
      else reject(failure ?? new Error(`the Parquet thread exited with code ${code} before writing ${path}`))
    })
  })
  return { thread, done }
}

/**
 * How the server writes its Parquet file (`makeParquetOf`'s `write`): in a thread of its own, its
 * time recorded as the `parquet` family's execution. The Dataset is shared at each write (no copy
 * when it already is: a snapshot's, or with query workers; a source loaded with `WORKERS=0` is
 * copied for the write's duration).
 */
export const parquetWriter = (data: DatasetData, registry: Registry) => (path: string): Promise<void> => {
  const started = performance.now()
  return startParquetThread(shareDataset(data).share, path).done.then(() => registry.recordExecution("parquet", (performance.now() - started) / 1000))
}

/** The thread's body (`parquetWorker.ts`): writes the file, says how it went, and ends. */
export const writeInThisThread = (): void => {
  const port = parentPort
  if (port === null) throw new Error("the Parquet writer runs as a worker thread")
  giveWayToMainThread(PARQUET_THREAD_NICE)
  const { share, path } = workerData as ParquetJob
  let reply: ParquetReply
  try {
    writeParquet(attachDataset(share), path)
    reply = { kind: "written" }
  } catch (error) {
    reply = { kind: "failed", message: error instanceof Error ? error.stack ?? error.message : String(error) }
  }
  // Nothing listens on the port: once this is sent the thread has nothing left to do, and exits.
  port.postMessage(reply)
}
