/**
 * JSON Lines: split on the bytes; read each line in place (`lineScanner.ts`, for the Dataset
 * build) or decode it and `JSON.parse` it. A line cut by a chunk boundary is carried as bytes
 * (never decoded in halves, so a multi-byte character split across chunks survives).
 *
 * Light imports only: the encoding worker (`encodeWorker.ts`) loads this module.
 */
import { isUtf8 } from "node:buffer"
import { describeJsonType, markInvalidUtf8, normalizeRecord } from "./normalize.ts"
import type { RecordSpans } from "@equides/domain/build"
import { errorMessage, type LoadFailure, type RecordSink } from "./formatReader.ts"
import { LineScanner } from "./lineScanner.ts"

const NEWLINE = 0x0a
const BYTE_ORDER_MARK = 0xfeff

/** Receives the usual lines as spans (see `RecordSpans`), like a RecordSink receives records. */
export type SpanSink = (record: RecordSpans, line: number) => string | undefined

export class JsonLinesDecoder {
  lines = 0
  records = 0
  readonly #sink: RecordSink
  readonly #spanSink: SpanSink | undefined
  readonly #scanner = new LineScanner()
  // Bytes of the line in progress when a chunk ends without a newline.
  #carried: Array<Buffer> = []

  /**
   * Records go to `sink`; with a `spanSink` (the Dataset build), the usual lines go there as spans
   * of their bytes instead (`lineScanner.ts`), and only the others through JSON.parse to `sink`.
   */
  constructor(sink: RecordSink, spanSink?: SpanSink) {
    this.#sink = sink
    this.#spanSink = spanSink
  }

  push(chunk: Buffer): LoadFailure | undefined {
    let start = 0
    if (this.#carried.length > 0) {
      const newline = chunk.indexOf(NEWLINE)
      if (newline < 0) {
        this.#carried.push(Buffer.from(chunk))
        return undefined
      }
      this.#carried.push(chunk.subarray(0, newline))
      const line = Buffer.concat(this.#carried)
      this.#carried = []
      const failure = this.#bytes(line, 0, line.length)
      if (failure !== undefined) return failure
      start = newline + 1
    }
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start)
      if (newline < 0) break
      const failure = this.#bytes(chunk, start, newline)
      if (failure !== undefined) return failure
      start = newline + 1
    }
    // A copy: the caller may reuse the chunk's memory once `push` returns.
    if (start < chunk.length) this.#carried.push(Buffer.from(chunk.subarray(start)))
    return undefined
  }

  end(): LoadFailure | undefined {
    if (this.#carried.length === 0) return undefined
    const line = Buffer.concat(this.#carried)
    this.#carried = []
    return this.#bytes(line, 0, line.length)
  }

  /** The line `bytes[start..end]`: scanned in place when possible, else decoded and parsed. */
  #bytes(bytes: Buffer, start: number, end: number): LoadFailure | undefined {
    if (this.#spanSink !== undefined && start < end) {
      // A byte order mark opens the first line at most (the decoded path drops it the same way).
      const from = this.lines === 0 && end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf
        ? start + 3
        : start
      const record = this.#scanner.scan(bytes, from, end)
      if (record !== undefined) {
        const line = ++this.lines
        this.records++
        const rejection = this.#spanSink(record, line)
        return rejection === undefined ? undefined : { line, reason: rejection }
      }
    }
    // A newline byte never falls inside a UTF-8 sequence: decoding line by line gives the same text.
    // Bytes that are not UTF-8 are marked, not replaced by U+FFFD: the values holding them are
    // left out and counted (`normalize.ts`).
    if (isUtf8(bytes.subarray(start, end))) return this.#line(bytes.toString("utf8", start, end), false)
    return this.#line(markInvalidUtf8(bytes, start, end).toString("utf8"), true)
  }

  #line(text: string, marked: boolean): LoadFailure | undefined {
    const line = ++this.lines
    if (text.length === 0) return undefined
    let first = text.charCodeAt(0)
    if (first === BYTE_ORDER_MARK && line === 1) {
      text = text.slice(1)
      first = text.charCodeAt(0)
    }
    // Blank lines (a trailing newline, a stray `\r`) carry no record.
    if ((first <= 0x20 || text.length === 0) && text.trim().length === 0) return undefined
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      return { line, reason: `invalid JSON: ${errorMessage(error)}` }
    }
    const record = normalizeRecord(value, marked)
    if (record === undefined) return { line, reason: `expected a JSON object, found ${describeJsonType(value)}` }
    this.records++
    const rejection = this.#sink(record, line)
    return rejection === undefined ? undefined : { line, reason: rejection }
  }
}
