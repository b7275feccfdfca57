/** JSON Lines read in line, record by record (see `jsonLinesDecoder.ts`). */
import type { LoadFailure, ReadCounts, RecordSink } from "./formatReader.ts"
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
