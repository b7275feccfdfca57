/**
 * JSON Lines on two threads: a worker parses the lines and runs stage 1 of the Dataset build
 * (`encodeWorker.ts`), the main thread reads the file (and hands it to the hasher) and assembles
 * the rows the worker sends back (stage 2, `DatasetAssembler`), in file order. Parsing is the
 * larger half of a load: on a second core the two halves overlap.
 */
import type { DatasetAssembler, EncoderSummary } from "@equides/domain"
import { Worker } from "node:worker_threads"
import type { Chunk, Free, Reply } from "./encodeWorker.ts"
import { isLoadFailure, type LoadFailure, nextOf, type ReadCounts } from "./formatReader.ts"
import { inputFailure } from "./sourceFile.ts"

/** Chunks (of 1 MiB) handed to the worker and not yet answered: enough to keep it busy, and a bound on memory. */
const MAX_IN_FLIGHT = 8

export interface EncodedCounts extends ReadCounts {
  readonly summary: EncoderSummary
}

/** After this much of the file (or 2 % of it, if less), the Dataset's size is estimated. */
const ESTIMATE_AFTER_BYTES = 64 << 20

/**
 * `expectedBytes`: the size of the text to read, when known (not for a compressed file): the
 * assembler is then told how many rows to expect, from the bytes per line seen so far.
 */
export const readJsonLinesEncoded = async (
  chunks: AsyncIterator<Buffer>,
  assembler: DatasetAssembler,
  onChunk: (lines: number) => void,
  expectedBytes?: number
): Promise<EncodedCounts | LoadFailure> => {
  const worker = new Worker(new URL("./encodeWorker.ts", import.meta.url))
  let inFlight = 0
  let lines = 0
  let failure: LoadFailure | undefined
  let done: EncodedCounts | undefined
  let defect: Error | undefined
  let wake: (() => void) | undefined
  const wait = () => new Promise<void>((resolve) => (wake = resolve))
  const signal = () => {
    const waiting = wake
    wake = undefined
    waiting?.()
  }
  // Chunk buffers the worker handed back, for the next chunks.
  const freeChunks: Array<ArrayBuffer> = []
  // Sizes of the chunks sent and not answered yet, and the bytes answered (the worker answers in order).
  const pendingSizes: Array<number> = []
  let bytesDone = 0
  let estimated = expectedBytes === undefined
  worker.on("message", (reply: Reply) => {
    if (reply.kind === "batch") {
      inFlight--
      lines = reply.lines
      bytesDone += pendingSizes.shift() ?? 0
      if (!estimated && expectedBytes !== undefined && lines > 0 && bytesDone >= Math.min(ESTIMATE_AFTER_BYTES, expectedBytes / 50)) {
        estimated = true
        assembler.expect(Math.ceil(((expectedBytes * lines) / bytesDone) * 1.02))
      }
      if (reply.chunk !== undefined) freeChunks.push(reply.chunk)
      // After a failure the rows are of no use: the load stops.
      if (failure === undefined) failure = assembler.add(reply.batch)
      // The assembler copied the rows out: the batch's buffer goes back to the worker.
      const free: Free = { free: reply.batch.ids.buffer as ArrayBuffer }
      worker.postMessage(free, [free.free])
    } else if (reply.kind === "failure") {
      failure ??= reply.failure
    } else {
      done = { lines: reply.lines, records: reply.records, summary: reply.summary }
    }
    signal()
  })
  // A worker that throws is a bug, not a load error: it surfaces as a defect.
  worker.on("error", (error) => {
    defect ??= error
    signal()
  })
  worker.on("exit", (code) => {
    defect ??= new Error(`the JSON Lines worker exited with code ${code}`)
    signal()
  })
  const stopped = () => failure !== undefined || defect !== undefined
  try {
    for (;;) {
      while (inFlight >= MAX_IN_FLIGHT && !stopped()) await wait()
      if (stopped()) break
      const next = await nextOf(chunks, inputFailure)
      if (next === undefined) break
      if (isLoadFailure(next)) return next
      const chunk = next.value
      // The reader's buffer is not ours to transfer: a copy is (a memcpy, next to parsing it).
      const reused = freeChunks.pop()
      const buffer = reused !== undefined && reused.byteLength >= chunk.length ? reused : new ArrayBuffer(Math.max(chunk.length, 1 << 20))
      new Uint8Array(buffer).set(chunk)
      const message: Chunk = { buffer, length: chunk.length }
      worker.postMessage(message, [buffer])
      pendingSizes.push(chunk.length)
      inFlight++
      onChunk(lines)
    }
    if (!stopped()) {
      worker.postMessage("end")
      inFlight++
      while (done === undefined && !stopped()) await wait()
    }
    if (defect !== undefined) throw defect
    if (failure !== undefined) return failure
    return done!
  } finally {
    worker.removeAllListeners("exit")
    void worker.terminate()
  }
}
