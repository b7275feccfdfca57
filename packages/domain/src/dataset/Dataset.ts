import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { DatasetData, Provenance } from "./DatasetData.ts"
import type { SourceRecord } from "./SourceRecord.ts"
import { DatasetBuilder } from "./build/DatasetBuilder.ts"

/** The loaded extract, as a service: every query and handler reads it. */
export class Dataset extends Context.Service<Dataset, DatasetData>()("@equides/domain/Dataset") {}

/** A made-up provenance for Datasets built in memory (tests, examples). */
export const inMemoryProvenance = (lines: number): Provenance => ({
  file: "in-memory",
  fingerprint: "0".repeat(64),
  bytes: 0,
  lines,
  ingestedAt: "1970-01-01T00:00:00.000Z"
})

/**
 * Builds a Dataset from records held in memory, applying the same rules as a file load.
 * Throws on a duplicate id: in-memory records are a test's own making.
 */
export const buildDataset = (records: Iterable<SourceRecord>, provenance?: Provenance): DatasetData => {
  const builder = new DatasetBuilder()
  let line = 0
  for (const record of records) {
    const reason = builder.add(record, ++line)
    if (reason !== undefined) throw new Error(`record ${line}: ${reason}`)
  }
  return builder.finish(provenance ?? inMemoryProvenance(line))
}

/** A Dataset layer over a handful of records: the mock for tests and examples. */
export const fromRecords = (records: Iterable<SourceRecord>, provenance?: Provenance): Layer.Layer<Dataset> =>
  Layer.sync(Dataset, () => buildDataset(records, provenance))
