/**
 * The single entry point for loading a source file: one pass over the bytes, hashing them as
 * stored and handing each record to a synchronous sink. The whole read is one Effect; the hot loop
 * is plain code, because an Effect per row would cost more than the parsing itself at 4.45 M rows.
 */
import { type DatasetAssembler, type EncoderSummary, RecordEncoder } from "@equides/domain"
import * as Effect from "effect/Effect"
import { readCsvRecords } from "./csvRecords.ts"
import { readJsonLinesEncoded } from "./encodedJsonLines.ts"
import { type FormatReader, isLoadFailure, type LoadFailure, type ReadCounts, type RecordSink } from "./formatReader.ts"
import { readJsonLines } from "./jsonLines.ts"
import type { SpanSink } from "./jsonLinesDecoder.ts"
import { SourceError } from "./SourceError.ts"
import { fileKindOf, type SourceFormat } from "./sourceFormat.ts"
import { openSourceFile } from "./sourceFile.ts"

export interface ReadProgress {
  /** Physical lines of the decompressed text read so far. */
  readonly lines: number
  /** Bytes of the file as stored (compressed, for gzip), against `totalBytes` for a percentage. */
  readonly bytesRead: number
  readonly totalBytes: number
  readonly elapsedMs: number
}

export interface ReadSourceOptions {
  /** Overrides the format the file name tells (needed when the name has no known extension). */
  readonly format?: SourceFormat
  /** Called at most every `progressIntervalMs`, and once at the end of a successful read. */
  readonly onProgress?: (progress: ReadProgress) => void
  readonly progressIntervalMs?: number
}

export interface SourceSummary {
  readonly file: string
  readonly format: SourceFormat
  readonly compressed: boolean
  /** Bytes of the file as stored. */
  readonly bytes: number
  /** Physical lines of the decompressed text, blank ones and a CSV header included. */
  readonly lines: number
  readonly records: number
  /** BLAKE3-256, hex, of the file's bytes as stored (`empreinte_source`). */
  readonly fingerprint: string
}

const READERS: Record<SourceFormat, FormatReader> = { jsonl: readJsonLines, csv: readCsvRecords }

const DEFAULT_PROGRESS_INTERVAL_MS = 250

/**
 * Consumes the decompressed bytes of the file once (`totalBytes`: its size as stored;
 * `textBytes`: the size of the text, when known, that is when the file is not compressed).
 */
type Reader<R extends ReadCounts> = (
  chunks: AsyncIterator<Buffer>,
  onChunk: (lines: number) => void,
  totalBytes: number,
  textBytes: number | undefined
) => Promise<R | LoadFailure>

const load = async <R extends ReadCounts>(
  file: string,
  format: SourceFormat,
  gzipSuffix: boolean,
  read: Reader<R>,
  options: ReadSourceOptions,
  signal: AbortSignal
): Promise<(SourceSummary & R) | LoadFailure> => {
  const started = performance.now()
  const source = await openSourceFile(file, gzipSuffix)
  if ("reason" in source) return source
  const stop = () => source.close()
  signal.addEventListener("abort", stop, { once: true })
  try {
    const { onProgress } = options
    const interval = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS
    let lastReport = started
    const report = (lines: number, now: number): void =>
      onProgress?.({ lines, bytesRead: source.bytesRead(), totalBytes: source.totalBytes, elapsedMs: now - started })
    const onChunk = onProgress === undefined ? () => undefined : (lines: number) => {
      const now = performance.now()
      if (now - lastReport < interval) return
      lastReport = now
      report(lines, now)
    }
    const outcome = await read(source.chunks, onChunk, source.totalBytes, source.compressed ? undefined : source.totalBytes)
    if (isLoadFailure(outcome)) return outcome
    // Interrupted: the streams and the hasher are closed, there is no fingerprint to wait for.
    if (signal.aborted) return { reason: "interrupted" }
    const fingerprint = await source.fingerprint()
    report(outcome.lines, performance.now())
    return {
      ...outcome,
      file,
      format,
      compressed: source.compressed,
      bytes: source.bytesRead(),
      lines: outcome.lines,
      records: outcome.records,
      fingerprint
    }
  } finally {
    signal.removeEventListener("abort", stop)
    stop()
  }
}

/**
 * Reads `file` (`.jsonl`, `.ndjson` or `.csv`, optionally gzip-compressed: `.gz` suffix or gzip
 * magic bytes) and calls `sink` for each record in file order. An empty file is 0 records, not an
 * error. Fails with a `SourceError` naming the file, the line where one applies, and the reason.
 */
export const readSource = Effect.fn("readSource")(function*(
  file: string,
  sink: RecordSink,
  options: ReadSourceOptions = {}
): Effect.fn.Return<SourceSummary, SourceError> {
  return yield* readWith(file, options, (format) => (chunks, onChunk) => READERS[format](chunks, sink, onChunk))
})

const readWith = <R extends ReadCounts>(
  file: string,
  options: ReadSourceOptions,
  reader: (format: SourceFormat) => Reader<R>
): Effect.Effect<SourceSummary & R, SourceError> =>
  Effect.gen(function*() {
    const kind = fileKindOf(file)
    const format = options.format ?? kind.format
    if (format === undefined) {
      return yield* new SourceError({
        file,
        reason: "unknown file type: expected .jsonl, .ndjson or .csv, optionally followed by .gz"
      })
    }
    const outcome = yield* Effect.promise((signal) => load(file, format, kind.gzipSuffix, reader(format), options, signal))
    if ("reason" in outcome) {
      const { line, reason } = outcome
      return yield* new SourceError(line === undefined ? { file, reason } : { file, line, reason })
    }
    return outcome
  })

/**
 * JSON Lines files from this size on (as stored) are parsed on a worker thread: below it, starting
 * the worker costs more than it saves (the embedded sample, tests).
 */
export const ENCODE_WORKER_THRESHOLD_BYTES = 16 << 20

export interface ReadIntoOptions extends ReadSourceOptions {
  /** Parse on a worker thread (JSON Lines only); by default, for files of ENCODE_WORKER_THRESHOLD_BYTES and more. */
  readonly worker?: boolean
}

/**
 * Reads `file` as `readSource` does, straight into stage 2 of a Dataset build (`assembler`);
 * answers, with the file's summary, stage 1's (for `assembler.finish`). Large JSON Lines files run
 * stage 1 on a worker thread (`encodedJsonLines.ts`), anything else in line, record by record.
 */
export const readSourceInto = Effect.fn("readSourceInto")(function*(
  file: string,
  assembler: DatasetAssembler,
  options: ReadIntoOptions = {}
): Effect.fn.Return<SourceSummary & { readonly encoded: EncoderSummary }, SourceError> {
  const outcome = yield* readWith(file, options, (format) => (chunks, onChunk, totalBytes, textBytes) => {
    if (format === "jsonl" && (options.worker ?? totalBytes >= ENCODE_WORKER_THRESHOLD_BYTES)) {
      return readJsonLinesEncoded(chunks, assembler, onChunk, textBytes)
    }
    const encoder = new RecordEncoder()
    const sink: RecordSink = (record, line) => encoder.encode(record, line) ? assembler.add(encoder.take())?.reason : undefined
    const spanSink: SpanSink = (record, line) =>
      encoder.encodeSpans(record, line) ? assembler.add(encoder.take())?.reason : undefined
    const read = format === "jsonl" ? readJsonLines(chunks, sink, onChunk, spanSink) : READERS[format](chunks, sink, onChunk)
    return read.then((counts) => isLoadFailure(counts) ? counts : { ...counts, summary: encoder.summary() })
  })
  const { summary, ...rest } = outcome
  return { ...rest, encoded: summary }
})
