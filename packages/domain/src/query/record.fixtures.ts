/**
 * Test helpers for the record-level queries: a Dataset from records, and the row of an id.
 * Not exported by the package.
 */
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { encodeId, ID_BYTES } from "../dataset/ids.ts"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { recordsArbitrary } from "../testing/arbitraries.ts"

/** Row of the record with this id (throws when absent: a test's own mistake). */
export const rowOf = (data: DatasetData, id: string): number => {
  for (let row = 0; row < data.size; row++) if (encodeId(data.ids, row * ID_BYTES) === id) return row
  throw new Error(`no row for ${id}`)
}

export const build = (records: ReadonlyArray<SourceRecord>): DatasetData => buildDataset(records)

/** Small record sets: every record-level view is checked on each row. */
export const arbitraryRecords = recordsArbitrary({ minLength: 1, maxLength: 12 })
