/**
 * JSON Lines: split on the bytes, decode each chunk once up to its last newline, `JSON.parse` each
 * line. A line cut by a chunk boundary is carried as bytes (never decoded in halves, so a
 * multi-byte character split across chunks survives).
 */
import { describeJsonType, normalizeRecord } from "./normalize.ts"
import { errorMessage, type FormatReader, type LoadFailure, type RecordSink } from "./formatReader.ts"
import { inputFailure } from "./sourceFile.ts"

const NEWLINE = 0x0a
const BYTE_ORDER_MARK = 0xfeff

class JsonLinesDecoder {
  lines = 0
  records = 0
  readonly #sink: RecordSink
  // Bytes of the line in progress when a chunk ends without a newline.
  #carried: Array<Buffer> = []

  constructor(sink: RecordSink) {
    this.#sink = sink
  }

  push(chunk: Buffer): LoadFailure | undefined {
    let start = 0
    if (this.#carried.length > 0) {
      const newline = chunk.indexOf(NEWLINE)
      if (newline < 0) {
        this.#carried.push(chunk)
        return undefined
      }
      this.#carried.push(chunk.subarray(0, newline))
      const line = Buffer.concat(this.#carried).toString("utf8")
      this.#carried = []
      const failure = this.#line(line)
      if (failure !== undefined) return failure
      start = newline + 1
    }
    const last = chunk.lastIndexOf(NEWLINE)
    if (last >= start) {
      const text = chunk.toString("utf8", start, last)
      let from = 0
      for (;;) {
        const newline = text.indexOf("\n", from)
        const failure = this.#line(newline < 0 ? text.slice(from) : text.slice(from, newline))
        if (failure !== undefined) return failure
        if (newline < 0) break
        from = newline + 1
      }
      start = last + 1
    }
    if (start < chunk.length) this.#carried.push(chunk.subarray(start))
    return undefined
  }

  end(): LoadFailure | undefined {
    if (this.#carried.length === 0) return undefined
    const line = Buffer.concat(this.#carried).toString("utf8")
    this.#carried = []
    return this.#line(line)
  }

  #line(text: string): LoadFailure | undefined {
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
    const record = normalizeRecord(value)
    if (record === undefined) return { line, reason: `expected a JSON object, found ${describeJsonType(value)}` }
    this.records++
    const rejection = this.#sink(record, line)
    return rejection === undefined ? undefined : { line, reason: rejection }
  }
}

export const readJsonLines: FormatReader = async (chunks, sink, onChunk) => {
  const decoder = new JsonLinesDecoder(sink)
  for (;;) {
    let step: IteratorResult<Buffer>
    try {
      step = await chunks.next()
    } catch (error) {
      return inputFailure(error)
    }
    if (step.done === true) break
    const failure = decoder.push(step.value)
    if (failure !== undefined) return failure
    onChunk(decoder.lines)
  }
  const failure = decoder.end()
  if (failure !== undefined) return failure
  return { lines: decoder.lines, records: decoder.records }
}
