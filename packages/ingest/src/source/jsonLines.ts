/** JSON Lines read in line, record by record (see `jsonLinesDecoder.ts`). */
import { isLoadFailure, type LoadFailure, nextOf, type ReadCounts, type RecordSink } from "./formatReader.ts"
import { JsonLinesDecoder, type SpanSink } from "./jsonLinesDecoder.ts"
import { inputFailure } from "./sourceFile.ts"

/** A FormatReader; with a `spanSink`, the usual lines go there as spans (see `JsonLinesDecoder`). */
export const readJsonLines = async (
  chunks: AsyncIterator<Buffer>,
  sink: RecordSink,
  onChunk: (lines: number) => void,
  spanSink?: SpanSink
): Promise<ReadCounts | LoadFailure> => {
  const decoder = new JsonLinesDecoder(sink, spanSink)
  for (;;) {
    const next = await nextOf(chunks, inputFailure)
    if (next === undefined) break
    if (isLoadFailure(next)) return next
    const failure = decoder.push(next.value)
    if (failure !== undefined) return failure
    onChunk(decoder.lines)
  }
  const failure = decoder.end()
  if (failure !== undefined) return failure
  return { lines: decoder.lines, records: decoder.records }
}
