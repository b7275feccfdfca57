export * from "./format/csvColumns.ts"
export * from "./format/csvRow.ts"
export { readSource, type ReadProgress, type ReadSourceOptions, type SourceSummary } from "./source/readSource.ts"
export { SourceError } from "./source/SourceError.ts"
export type { RecordSink } from "./source/formatReader.ts"
export { fileKindOf, SOURCE_FORMATS, type FileKind, type SourceFormat } from "./source/sourceFormat.ts"
export { normalizeRecord } from "./source/normalize.ts"
export * from "./load/loadDataset.ts"
export { progressDisplay, readWork, Tenths, type WorkProgress } from "./progress/workProgress.ts"
export {
  datasetShape,
  readSnapshot,
  type Shape,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_MAGIC,
  type SnapshotExpectation,
  type SnapshotSource,
  writeSnapshot
} from "./snapshot/Snapshot.ts"
export { SnapshotError } from "./snapshot/SnapshotError.ts"
export { attachDataset, type DatasetShare, shareDataset, type SharedLeaf } from "./shared/sharedDataset.ts"
export { codeDigest } from "./codeDigest.ts"
