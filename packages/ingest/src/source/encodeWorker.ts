/**
 * Runs in a worker thread (see `encodedJsonLines.ts`): reads JSON Lines chunks and runs stage 1
 * of the Dataset build (`RecordEncoder`) on them, so that the main thread only assembles rows.
 *
 * Messages in: a chunk of the file's decompressed bytes, as a transferred buffer and the length
 * used in it, in file order; `"end"` after the last one; a batch's buffer handed back for reuse.
 * Messages out, in order: one `batch` per chunk (the rows its complete lines gave, in one
 * transferred buffer, with the chunk's buffer handed back), a `failure` that stops the worker
 * (invalid JSON, not an object: the rows before it were sent first), or `done` with the counts and
 * the encoder's summary. Buffers go back and forth instead of being allocated for each chunk:
 * every fresh megabyte costs page faults, and its share of garbage collection.
 */
import { batchBuffers, RecordEncoder, summaryBuffers } from "@equides/domain/build"
import { parentPort } from "node:worker_threads"
import type { LoadFailure } from "./formatReader.ts"
import { JsonLinesDecoder } from "./jsonLinesDecoder.ts"

export interface Chunk {
  readonly buffer: ArrayBuffer
  readonly length: number
}

/** A batch's buffer, returned by the main thread once the rows are assembled. */
export interface Free {
  readonly free: ArrayBuffer
}

export type Reply =
  | {
    readonly kind: "batch"
    readonly batch: ReturnType<RecordEncoder["take"]>
    readonly lines: number
    /** The chunk's buffer, for the next chunk. */
    readonly chunk: ArrayBuffer | undefined
  }
  | { readonly kind: "failure"; readonly failure: LoadFailure }
  | { readonly kind: "done"; readonly lines: number; readonly records: number; readonly summary: ReturnType<RecordEncoder["summary"]> }

const port = parentPort!
const encoder = new RecordEncoder()
const decoder = new JsonLinesDecoder(
  (record, line) => {
    encoder.encode(record, line)
    return undefined
  },
  (record, line) => {
    encoder.encodeSpans(record, line)
    return undefined
  }
)
let stopped = false

const send = (reply: Reply, transfer: Array<ArrayBuffer> = []): void => port.postMessage(reply, transfer)

const freeBuffers: Array<ArrayBuffer> = []
const bufferOf = (byteLength: number): ArrayBuffer => {
  const free = freeBuffers.pop()
  return free !== undefined && free.byteLength >= byteLength ? free : new ArrayBuffer(Math.max(byteLength, 1 << 20))
}

const flush = (chunk: ArrayBuffer | undefined): void => {
  const batch = encoder.take(bufferOf)
  const transfer = batchBuffers(batch)
  if (chunk !== undefined) transfer.push(chunk)
  send({ kind: "batch", batch, lines: decoder.lines, chunk }, transfer)
}

port.on("message", (message: Chunk | Free | "end") => {
  if (message !== "end" && "free" in message) {
    freeBuffers.push(message.free)
    return
  }
  if (stopped) return
  const failure = message === "end" ? decoder.end() : decoder.push(Buffer.from(message.buffer, 0, message.length))
  flush(message === "end" ? undefined : message.buffer)
  if (failure !== undefined) {
    stopped = true
    send({ kind: "failure", failure })
  } else if (message === "end") {
    const summary = encoder.summary()
    send({ kind: "done", lines: decoder.lines, records: decoder.records, summary }, summaryBuffers(summary))
  }
})
