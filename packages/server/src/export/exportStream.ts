/**
 * A selection's export written to a Node response (design 7, issue 30): the body produced a chunk
 * at a time on the event loop (`exportChunk`, about 32 KiB: about half a millisecond of encoding,
 * docs/decisions.md), each chunk charged to the caller's quota before it is sent (`Pacer`), the
 * next produced only when the socket has taken the last (back-pressure: about two chunks unsent at
 * most), compressed as it goes by the negotiated coding. A client that leaves stops it at once.
 */
import type { DatasetData } from "@equides/domain"
import type { ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { Coding } from "../admission/coding.ts"
import { compressor } from "../admission/coding.ts"
import { CSV_HEADER_LINE, exportChunk, type ExportFormat, type ExportRows } from "./exportBody.ts"
import type { Pacer } from "./pacing.ts"

/** Bytes of body produced at once. */
export const CHUNK_BYTES = 32 * 1024

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** The body's chunks, each charged before it is handed on; the event loop gets a turn between two. */
export async function* exportBody(
  data: DatasetData,
  rows: ExportRows,
  format: ExportFormat,
  pacer: Pacer,
  signal: AbortSignal
): AsyncGenerator<Uint8Array> {
  if (format === "csv") {
    await pacer.charge(CSV_HEADER_LINE.length, signal)
    yield CSV_HEADER_LINE
  }
  while (!rows.done && !signal.aborted) {
    const chunk = exportChunk(data, rows, format, CHUNK_BYTES)
    if (chunk.length > 0) {
      await pacer.charge(chunk.length, signal)
      if (signal.aborted) return
      yield chunk
    }
    await nextTurn()
  }
}

/** A body read from elsewhere (a file), each chunk charged before it is handed on. */
export async function* paced(source: AsyncIterable<Uint8Array>, pacer: Pacer, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    await pacer.charge(chunk.length, signal)
    if (signal.aborted) return
    yield chunk
  }
}

/**
 * `body` compressed by `coding` as it is read, for a platform's response (without the front door:
 * `handlers/exports.ts`); a reader that stops reading stops the body.
 */
export const compressedBody = (body: AsyncIterable<Uint8Array>, coding: Exclude<Coding, "identity">): AsyncIterable<Uint8Array> => {
  const compressed = compressor(coding)
  // The reader's failure or departure destroys `compressed`, which ends the body: nothing left to report.
  pipeline(Readable.from(body, { objectMode: true, highWaterMark: 1 }), compressed).catch(() => undefined)
  return compressed
}

/**
 * Streams the body to `response` (its head already written): resolves when the body is sent,
 * rejects when the client left or the stream failed; either way `signal`'s controller is aborted
 * by the caller so that a stream waiting for the quota stops too.
 */
export const streamExport = (
  body: AsyncIterable<Uint8Array>,
  coding: Coding,
  response: ServerResponse
): Promise<void> => {
  // One chunk read ahead at most: with the compressor's and the socket's own buffers (16 KiB
  // each), about 150 KiB unsent at most.
  const source = Readable.from(body, { objectMode: true, highWaterMark: 1 })
  return coding === "identity" ? pipeline(source, response) : pipeline(source, compressor(coding), response)
}
