/**
 * The hand-over between the two stages of a Dataset build (see `RecordEncoder` and
 * `DatasetAssembler`): rows already reduced to numbers and bytes, so that stage 1 can run on
 * another thread and hand its batches over as transferred buffers, without a JS object per record.
 * Only typed arrays, numbers and arrays of strings: a batch and a summary survive `postMessage`.
 */
import type { NameSummary } from "./names.ts"

/** Variable-length bytes per row: row `i` is `bytes[ends[i-1]..ends[i]]` (from 0 for the first). */
export interface BytesColumn {
  readonly bytes: Uint8Array
  readonly ends: Uint32Array
}

/** A variable-length list of codes per row, same layout as BytesColumn. */
export interface CodesColumn {
  readonly codes: Uint32Array
  readonly ends: Uint32Array
}

/** Consecutive readable rows, in file order. Arrays may be longer than `size` rows need. */
export interface RowBatch {
  readonly size: number
  /** Source line of each row (for the duplicate-id message). */
  readonly lines: Uint32Array
  /** 16 bytes per row. */
  readonly ids: Uint8Array
  /** The row's `nom` (UTF-8, empty when absent) and the id of its folded form (see `NameIndexer`). */
  readonly nom: BytesColumn
  readonly key: Uint32Array
  /** 1 where the source's slug is slugify(nom) (not stored); the others' text, `""` when absent. */
  readonly slugDeduced: Uint8Array
  readonly slug: BytesColumn
  /** 1 where `filiation_texte` is what the links spell (not stored); the others' text, `""` when absent. */
  readonly filiationSpelled: Uint8Array
  readonly filiation: BytesColumn
  readonly race: Uint32Array
  readonly robe: Uint32Array
  readonly statut: Uint32Array
  readonly sexe: Uint8Array
  readonly year: Int32Array
  /** See `performances.ts`. */
  readonly performances: BytesColumn
  /** Distinct discipline codes and index codes per row. */
  readonly disciplines: CodesColumn
  readonly indices: CodesColumn
  /**
   * Three per row (pere, mere, pere_de_mere): link breed code, readable-id flag, id bytes (16
   * each), whether the link has a `nom`, and that name (UTF-8).
   */
  readonly linkRace: Uint8Array
  readonly linkReadable: Uint8Array
  readonly linkIds: Uint8Array
  readonly linkNamed: Uint8Array
  readonly linkNames: BytesColumn
}

/** Everything stage 1 knows once every record is read: dictionaries, counts, the name index parts. */
export interface EncoderSummary {
  readonly illisibles: number
  readonly robeAbsente: number
  readonly anneeAbsente: number
  readonly anneeMin: number | null
  readonly anneeMax: number | null
  readonly sansFiliation: number
  readonly slugsNonDeductibles: number
  /** Text values left out because they were not well-formed (see `RejectedValues`). */
  readonly textesInvalides: number
  /** Values left out because of their JSON type. */
  readonly typesInvalides: number
  readonly race: Array<string>
  readonly robe: Array<string>
  readonly statut: Array<string>
  readonly discipline: Array<string>
  readonly indice: Array<string>
  readonly linkRaces: Array<string>
  /** Link occurrences per link breed code. */
  readonly linkRaceCounts: Uint32Array
  readonly performanceStrings: Array<string>
  readonly names: NameSummary
}

/** Every buffer of a batch, for a `postMessage` transfer list. */
export const batchBuffers = (batch: RowBatch): Array<ArrayBuffer> => {
  const views = [
    batch.lines, batch.ids, batch.nom.bytes, batch.nom.ends, batch.key, batch.slugDeduced, batch.slug.bytes, batch.slug.ends, batch.filiationSpelled,
    batch.filiation.bytes, batch.filiation.ends, batch.race, batch.robe, batch.statut, batch.sexe, batch.year,
    batch.performances.bytes, batch.performances.ends, batch.disciplines.codes, batch.disciplines.ends, batch.indices.codes,
    batch.indices.ends, batch.linkRace, batch.linkReadable, batch.linkIds, batch.linkNamed, batch.linkNames.bytes,
    batch.linkNames.ends
  ]
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))]
}

/** Every buffer of a summary, for a `postMessage` transfer list. */
export const summaryBuffers = (summary: EncoderSummary): Array<ArrayBuffer> => {
  const { names } = summary
  const views = [summary.linkRaceCounts, names.keyRank, names.keyTokens.offsets, names.keyTokens.rows]
  return [...new Set(views.map((view) => view.buffer as ArrayBuffer))]
}
