/**
 * The flat CSV export, parsed by csv-parse's stream. The header row is required; a row of another
 * width, a broken quote or an invalid `performances` cell stops the load.
 */
import { Readable, pipeline } from "node:stream"
import { CsvError, parse } from "csv-parse"
import { csvLayout, csvRowToRecord, type CsvLayout } from "./csvLayout.ts"
import { failureAt, type FormatReader, isLoadFailure, type LoadFailure, nextOf } from "./formatReader.ts"
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

export const readCsvRecords: FormatReader = async (chunks, sink, onChunk) => {
  const counter = new LineCounter()
  async function* counted(): AsyncGenerator<Buffer> {
    for (;;) {
      const step = await chunks.next()
      if (step.done === true) return
      counter.count(step.value)
      onChunk(counter.lines)
      yield step.value
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
      const record = csvRowToRecord(cells, layout)
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
