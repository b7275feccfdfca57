/**
 * A record given as spans of its source's UTF-8 bytes rather than as strings: what a reader that
 * can point at the values hands stage 1 (the JSON Lines fast path, `lineScanner.ts` in ingest).
 * Building a string, then an object, for every value of every line, only to encode most of them
 * back to UTF-8 or to a dictionary code, was most of a load's work; `RecordEncoder.encodeSpans`
 * reads the bytes where they are.
 *
 * Contract, for the result to equal `encode` of the record the same line gives: each text span
 * is a value the normaliser keeps (present and non-empty), and its bytes are exactly the UTF-8
 * of that string (no escape sequence, well-formed UTF-8). Readers give up on anything else and
 * hand over a `SourceRecord` instead.
 */
import type { SourcePerformance } from "../SourceRecord.ts"

/** Text fields, by index in `RecordSpans.spans` (two Int32 each: start, end). */
export const SPAN_ID = 0
export const SPAN_SLUG = 1
export const SPAN_NOM = 2
export const SPAN_RACE = 3
export const SPAN_SEXE = 4
export const SPAN_ROBE = 5
export const SPAN_STATUT = 6
export const SPAN_FILIATION = 7
/** Link `k` (0 pere, 1 mere, 2 pere_de_mere): its id, nom and race. */
export const spanLinkId = (k: number): number => 8 + 3 * k
export const spanLinkNom = (k: number): number => 9 + 3 * k
export const spanLinkRace = (k: number): number => 10 + 3 * k
export const SPAN_FIELDS = 17

export class RecordSpans {
  /** Start and end of each text field in `bytes`; a start of -1 marks an absent value. */
  readonly spans = new Int32Array(2 * SPAN_FIELDS)
  bytes: Uint8Array = new Uint8Array(0)
  annee: number | undefined = undefined
  performances: ReadonlyArray<SourcePerformance> | undefined = undefined

  /** Forgets the previous record: every field absent. */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes
    this.spans.fill(-1)
    this.annee = undefined
    this.performances = undefined
  }

  has(field: number): boolean {
    return this.spans[2 * field] >= 0
  }

  start(field: number): number {
    return this.spans[2 * field]
  }

  end(field: number): number {
    return this.spans[2 * field + 1]
  }

  set(field: number, start: number, end: number): void {
    this.spans[2 * field] = start
    this.spans[2 * field + 1] = end
  }
}
