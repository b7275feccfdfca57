/**
 * Writes generated lines as JSON Lines or as the flat CSV export (design 1.2), gzip-compressed
 * when the path ends in `.gz`. Lines are pulled from the generator only as fast as the disk takes
 * them, so writing 4.45 million lines needs no more memory than writing ten.
 */
import { createWriteStream } from "node:fs"
import { mkdir, rename, rm } from "node:fs/promises"
import { dirname } from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { createGzip } from "node:zlib"
import { CSV_HEADER, recordToCsvRow } from "../format/csvRow.ts"
import type { RawLine } from "./rawLine.ts"

export type ExtractFormat = "jsonl" | "csv"

export interface ExtractTarget {
  readonly format: ExtractFormat
  readonly gzip: boolean
}

/** The format a path asks for: `.jsonl`, `.ndjson` or `.csv`, each optionally followed by `.gz`. */
export const extractTargetOf = (path: string): ExtractTarget | undefined => {
  const lower = path.toLowerCase()
  const gzip = lower.endsWith(".gz")
  const base = gzip ? lower.slice(0, -3) : lower
  if (base.endsWith(".jsonl") || base.endsWith(".ndjson")) return { format: "jsonl", gzip }
  if (base.endsWith(".csv")) return { format: "csv", gzip }
  return undefined
}

// RFC 4180 ends CSV records with CRLF; JSON Lines uses LF.
const CSV_EOL = "\r\n"
const CHUNK_CHARS = 1 << 18

/** The file's text in chunks of about 256 K characters: few stream writes, bounded memory. */
export function* serializeExtract(lines: Iterable<RawLine>, format: ExtractFormat): Generator<string, void, undefined> {
  let chunk = format === "csv" ? CSV_HEADER + CSV_EOL : ""
  for (const line of lines) {
    chunk += format === "csv" ? recordToCsvRow(line) + CSV_EOL : JSON.stringify(line) + "\n"
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk
      chunk = ""
    }
  }
  if (chunk.length > 0) yield chunk
}

export interface WriteSummary {
  readonly lines: number
  /** Bytes on disk (compressed when gzip). */
  readonly bytes: number
}

export interface WriteProgress extends WriteSummary {
  readonly elapsedMs: number
}

export interface WriteExtractOptions {
  /** Called at most every `progressIntervalMs` (default 250) while lines are written, and once at the end. */
  readonly onProgress?: (progress: WriteProgress) => void
  readonly progressIntervalMs?: number
}

/** Lines between two looks at the clock: reading it for every line would cost more than the line. */
const LINES_PER_CLOCK_READ = 4096

/**
 * Streams `lines` to `path`, in the format its extension names. The file appears only once
 * complete (written beside it, then renamed), so a failed run never leaves a truncated extract.
 */
export const writeExtract = async (lines: Iterable<RawLine>, path: string, options: WriteExtractOptions = {}): Promise<WriteSummary> => {
  const target = extractTargetOf(path)
  if (target === undefined) throw new Error(`cannot tell the format of ${path}: use .jsonl, .ndjson or .csv, optionally .gz`)
  await mkdir(dirname(path), { recursive: true })
  const { onProgress } = options
  const interval = options.progressIntervalMs ?? 250
  const started = performance.now()
  let reportedAt = started
  let count = 0
  const counted = function*() {
    for (const line of lines) {
      count++
      if (onProgress !== undefined && count % LINES_PER_CLOCK_READ === 0) {
        const now = performance.now()
        if (now - reportedAt >= interval) {
          reportedAt = now
          onProgress({ lines: count, bytes: file.bytesWritten, elapsedMs: now - started })
        }
      }
      yield line
    }
  }
  const partial = `${path}.partial`
  const file = createWriteStream(partial)
  const source = Readable.from(serializeExtract(counted(), target.format), { objectMode: false })
  try {
    if (target.gzip) await pipeline(source, createGzip(), file)
    else await pipeline(source, file)
    await rename(partial, path)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  onProgress?.({ lines: count, bytes: file.bytesWritten, elapsedMs: performance.now() - started })
  return { lines: count, bytes: file.bytesWritten }
}
