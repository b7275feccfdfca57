/**
 * The single entry point for loading a source file: one pass over the bytes, hashing them as
 * stored and handing each record to a synchronous sink. The whole read is one Effect; the hot loop
 * is plain code, because an Effect per row would cost more than the parsing itself at 4.45 M rows.
 */
import { Effect } from "effect"
import { readCsvRecords } from "./csvRecords.ts"
import { isLoadFailure, type FormatReader, type LoadFailure, type RecordSink } from "./formatReader.ts"
import { readJsonLines } from "./jsonLines.ts"
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

const load = async (
  file: string,
  format: SourceFormat,
  gzipSuffix: boolean,
  sink: RecordSink,
  options: ReadSourceOptions,
  signal: AbortSignal
): Promise<SourceSummary | LoadFailure> => {
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
    const outcome = await READERS[format](source.chunks, sink, onChunk)
    if (isLoadFailure(outcome)) return outcome
    // Interrupted: the streams and the hasher are closed, there is no fingerprint to wait for.
    if (signal.aborted) return { reason: "interrupted" }
    const fingerprint = await source.fingerprint()
    report(outcome.lines, performance.now())
    return {
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
  const kind = fileKindOf(file)
  const format = options.format ?? kind.format
  if (format === undefined) {
    return yield* new SourceError({
      file,
      reason: "unknown file type: expected .jsonl, .ndjson or .csv, optionally followed by .gz"
    })
  }
  const outcome = yield* Effect.promise((signal) => load(file, format, kind.gzipSuffix, sink, options, signal))
  if ("reason" in outcome) {
    const { line, reason } = outcome
    return yield* new SourceError(line === undefined ? { file, reason } : { file, line, reason })
  }
  return outcome
})
