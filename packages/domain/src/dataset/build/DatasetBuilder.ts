import type { DatasetData, Provenance } from "../DatasetData.ts"
import type { SourceRecord } from "../SourceRecord.ts"
import { DatasetAssembler } from "./DatasetAssembler.ts"
import { RecordEncoder } from "./RecordEncoder.ts"

/**
 * Builds a Dataset from records handed over one at a time, both stages of the build in line:
 * each record is encoded (`RecordEncoder`) and assembled (`DatasetAssembler`) at once, so a
 * duplicate id is reported on its own line. Every anomaly of design 1.3 is counted once, by one
 * of the two stages. Large JSON Lines files run stage 1 on another thread instead (ingest).
 */
export class DatasetBuilder {
  readonly #encoder = new RecordEncoder()
  readonly #assembler = new DatasetAssembler()

  /** Adds one source line; answers a reason when the load must stop (a duplicate id). */
  add(record: SourceRecord, line: number): string | undefined {
    if (!this.#encoder.encode(record, line)) return undefined
    return this.#assembler.add(this.#encoder.take())?.reason
  }

  finish(provenance: Provenance): DatasetData {
    return this.#assembler.finish(this.#encoder.summary(), provenance)
  }
}
