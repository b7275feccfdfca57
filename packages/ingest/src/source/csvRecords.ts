/**
 * The flat CSV export, parsed by csv-parse's stream. The header row is required; a row of another
 * width, a broken quote or an invalid `performances` cell stops the load.
 */
import { Readable, pipeline } from "node:stream"
import { CsvError, parse } from "csv-parse"
import { isUtf8 } from "node:buffer"
import { csvLayout, csvRowToRecord, type CsvLayout } from "./csvLayout.ts"
import { failureAt, type FormatReader, isLoadFailure, type LoadFailure, nextOf } from "./formatReader.ts"
import { markInvalidUtf8 } from "./normalize.ts"
import { inputFailure } from "./sourceFile.ts"

const NEWLINE = 0x0a

interface ParsedRow {
  readonly record: Array<string>
  readonly info: { readonly lines: number; readonly empty_lines: number }
}

/** Physical lines (LF-terminated) of the whole text, for the summary and progress reports. */
class LineCounter {
  newlines = 0
  endsWithNewline = true

  count(chunk: Buffer): void {
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, at + 1)) this.newlines++
    if (chunk.length > 0) this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE
  }

  get lines(): number {
    return this.newlines + (this.endsWithNewline ? 0 : 1)
  }
}

const CARRIAGE_RETURN = "\r"

const carriageReturns = (cells: ReadonlyArray<string>): number => {
  let count = 0
  for (const cell of cells) {
    for (let at = cell.indexOf(CARRIAGE_RETURN); at >= 0; at = cell.indexOf(CARRIAGE_RETURN, at + 1)) count++
  }
  return count
}

/**
 * csv-parse reports the line where a record ends; where it starts follows from the previous
 * record's end and the blank lines skipped since. Lines here end with LF, but csv-parse also
 * counts each CR inside a quoted cell as a line break (a CRLF there counts twice), so records
 * spanning several lines are corrected; single-line records, nearly all of them, need no scan.
 */
class RecordLines {
  #parserEnd = 0
  #end = 0
  #empty = 0

  startOf(cells: ReadonlyArray<string>, info: ParsedRow["info"]): number {
    const skipped = info.empty_lines - this.#empty
    const parserStart = this.#parserEnd + 1 + skipped
    const start = this.#end + 1 + skipped
    const parserExtra = info.lines - parserStart
    this.#end = start + (parserExtra > 0 ? parserExtra - carriageReturns(cells) : 0)
    this.#parserEnd = info.lines
    this.#empty = info.empty_lines
    return start
  }
}

const csvFailure = (error: unknown): LoadFailure => {
  if (error instanceof CsvError) {
    const line = (error as CsvError & { readonly lines?: unknown }).lines
    return failureAt(typeof line === "number" ? line : undefined, `invalid CSV: ${error.message}`)
  }
  return inputFailure(error)
}

/**
 * Chunks whose bytes that are not UTF-8 are marked (`markInvalidUtf8`) rather than decoded to
 * U+FFFD by csv-parse, so that the cells holding them are left out and counted. A sequence cut by
 * a chunk's end waits for the next chunk.
 */
export class Utf8Marker {
  /** Some chunk held bytes that are not UTF-8: cells must be checked for the mark. */
  marked = false
  #tail: Buffer | undefined

  push(chunk: Buffer): Buffer {
    const bytes = this.#tail === undefined ? chunk : Buffer.concat([this.#tail, chunk])
    const end = completeEnd(bytes)
    this.#tail = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined
    return this.#checked(bytes, end)
  }

  end(): Buffer | undefined {
    const tail = this.#tail
    this.#tail = undefined
    return tail === undefined ? undefined : this.#checked(tail, tail.length)
  }

  #checked(bytes: Buffer, end: number): Buffer {
    if (isUtf8(bytes.subarray(0, end))) return bytes.subarray(0, end)
    this.marked = true
    return markInvalidUtf8(bytes, 0, end)
  }
}

/** Where the last UTF-8 sequence of `bytes` starts when it is cut short, else its length. */
const completeEnd = (bytes: Buffer): number => {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back]
    if ((b & 0xc0) === 0x80) continue
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
    return length > back ? bytes.length - back : bytes.length
  }
  return bytes.length
}

export const readCsvRecords: FormatReader = async (chunks, sink, onChunk) => {
  const counter = new LineCounter()
  const utf8 = new Utf8Marker()
  async function* counted(): AsyncGenerator<Buffer> {
    for (;;) {
      const step = await chunks.next()
      if (step.done === true) {
        const tail = utf8.end()
        if (tail !== undefined) yield tail
        return
      }
      counter.count(step.value)
      onChunk(counter.lines)
      yield utf8.push(step.value)
    }
  }
  // Width is checked here, not by csv-parse, to name the expected and found cell counts.
  const parser = parse({ info: true, relax_column_count: true, skip_empty_lines: true, bom: true })
  const input = Readable.from(counted(), { objectMode: false })
  pipeline(input, parser, () => undefined)
  const rows = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRow>

  const recordLines = new RecordLines()
  let layout: CsvLayout | undefined
  let records = 0
  try {
    for (;;) {
      const next = await nextOf(rows, csvFailure)
      if (next === undefined) break
      if (isLoadFailure(next)) return next
      const { record: cells, info } = next.value
      const line = recordLines.startOf(cells, info)
      if (layout === undefined) {
        const header = csvLayout(cells)
        if (typeof header === "string") return { line, reason: header }
        layout = header
        continue
      }
      if (cells.length !== layout.columnCount) {
        return { line, reason: `expected ${layout.columnCount} cells, found ${cells.length}` }
      }
      const record = csvRowToRecord(cells, layout, utf8.marked)
      if (typeof record === "string") return { line, reason: record }
      records++
      const rejection = sink(record, line)
      if (rejection !== undefined) return { line, reason: rejection }
    }
  } finally {
    parser.destroy()
    input.destroy()
  }
  return { lines: counter.lines, records }
}
