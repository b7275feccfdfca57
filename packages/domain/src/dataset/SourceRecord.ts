/**
 * One line of the registry extract after parsing, whatever the file format.
 *
 * Parsers normalise the source's looseness here, once: a `null`, a missing key and an empty string
 * are all absent (the property is omitted), numbers that are not integers where integers are
 * expected are absent, and `naisseur` (personal data) never reaches this shape.
 */
export interface SourceLink {
  readonly id?: string
  readonly nom?: string
  readonly race?: string
  readonly pays?: string
  readonly alias?: string
}

export interface SourceIndex {
  readonly annee?: number
  readonly appreciation?: string
  readonly code?: string
  readonly coefficient?: number
  readonly valeur?: string
}

export interface SourcePerformance {
  readonly discipline?: string
  readonly texte?: string
  readonly indices?: ReadonlyArray<SourceIndex>
}

/**
 * Values a reader found present but unusable and left out of the record (so absent), counted in
 * `anomalies` rather than rewritten: text that is not well-formed Unicode (bytes that were not
 * UTF-8, a lone surrogate) and values of another JSON type than their field's.
 */
export interface RejectedValues {
  readonly invalidText: number
  readonly wrongType: number
}

export interface SourceRecord {
  /** As written in the source: may be unreadable, the Dataset builder decides. */
  readonly id?: string
  readonly slug?: string
  readonly nom?: string
  readonly race?: string
  readonly sexe?: string
  readonly robe?: string
  readonly annee_naissance?: number
  readonly statut_reproducteur?: string
  readonly record?: string
  readonly filiation_texte?: string
  readonly pere?: SourceLink
  readonly mere?: SourceLink
  readonly pere_de_mere?: SourceLink
  readonly performances?: ReadonlyArray<SourcePerformance>
  /** What the reader left out of this record; absent when nothing was. */
  readonly rejected?: RejectedValues
}

export const LINK_KEYS = ["pere", "mere", "pere_de_mere"] as const
export type LinkKey = (typeof LINK_KEYS)[number]
