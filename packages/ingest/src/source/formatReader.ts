import type { SourceRecord } from "@equides/domain"

/**
 * Receives every record in file order, synchronously: `undefined` to go on, or the reason to stop
 * the load (the Dataset builder rejects a duplicate id this way). Throwing is a bug, not a load
 * error: it surfaces as a defect.
 */
export type RecordSink = (record: SourceRecord, line: number) => string | undefined

/** A load stopped by the data; becomes a `SourceError` once the file name is known. */
export interface LoadFailure {
  readonly line?: number
  readonly reason: string
}

export interface ReadCounts {
  readonly lines: number
  readonly records: number
}

/**
 * One file format: consumes the decompressed bytes once. `onChunk` receives the physical lines
 * seen so far, for progress reports.
 */
export type FormatReader = (
  chunks: AsyncIterator<Buffer>,
  sink: RecordSink,
  onChunk: (lines: number) => void
) => Promise<ReadCounts | LoadFailure>

export const isLoadFailure = <A extends object>(outcome: A | LoadFailure): outcome is LoadFailure => "reason" in outcome

export const failureAt = (line: number | undefined, reason: string): LoadFailure =>
  line === undefined ? { reason } : { line, reason }

export const errorMessage = (error: unknown): string => error instanceof Error ? error.message : String(error)

/**
 * The next item of a format's input, `undefined` at its end, or the failure a read error stands
 * for (`failure` names it: a missing file, a bad gzip stream, a CSV syntax error).
 */
export const nextOf = async <A>(
  input: AsyncIterator<A>,
  failure: (error: unknown) => LoadFailure
): Promise<{ readonly value: A } | undefined | LoadFailure> => {
  try {
    const step = await input.next()
    return step.done === true ? undefined : { value: step.value }
  } catch (error) {
    return failure(error)
  }
}
