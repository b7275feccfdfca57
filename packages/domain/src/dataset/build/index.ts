/**
 * Stage 1 of a Dataset build, for a parsing thread (`@equides/domain/build`): these modules need
 * nothing beyond the Dataset's own (no Effect, no schema), so a worker loading them is ready in
 * a few milliseconds instead of the best part of a second for the whole package.
 */
export { RecordEncoder } from "./RecordEncoder.ts"
export { batchBuffers, type EncoderSummary, type RowBatch, summaryBuffers } from "./RowBatch.ts"
export {
  RecordSpans,
  SPAN_FIELDS,
  SPAN_FILIATION,
  SPAN_ID,
  SPAN_NOM,
  SPAN_RACE,
  SPAN_ROBE,
  SPAN_SEXE,
  SPAN_SLUG,
  SPAN_STATUT,
  spanLinkId,
  spanLinkNom,
  spanLinkRace
} from "./RecordSpans.ts"
export type { SourceIndex, SourceLink, SourcePerformance, SourceRecord } from "../SourceRecord.ts"
