import type { Dictionary, Dimension, Postings, StringArena, Vocabulary } from "./columns.ts"
import type { BreedShares } from "../genetics/breedShares.ts"
import type { HeldDiversity } from "../genetics/diversity.ts"
import type { WholeExtract } from "../genetics/wholeExtract.ts"
import type { GeneticColumns } from "../genetics/columns.ts"
import type { PerformanceColumn } from "./performances.ts"
import type { ProgenyColumns } from "./progenyColumns.ts"

/** A year column's marker for "no birth year". */
export const NO_YEAR = -2147483648
/** A link column's marker for "no row": no parent recorded, or a dangling link. */
export const NO_ROW = -1
/** A link name column's marker for "the linked row's own name". */
export const LINK_NAME_OF_ROW = 0xffffffff

/** One parentage link column (`pere`, `mere` or `pere_de_mere`) of every row. */
export interface LinkColumn {
  /** Row of the linked record in this Dataset, or NO_ROW. */
  readonly row: Int32Array
  /**
   * The name each link carries, read with `linkName` (linkNames.ts): a code in `Links.names`
   * (0 = none), or LINK_NAME_OF_ROW when it is the linked row's own `nom` (most links name their
   * parent exactly as its record does, and storing those again would cost a string per link).
   */
  readonly nameExceptions: LinkNameExceptions
  /** Code in `Links.races` of the breed declared on the link (0 = none). */
  readonly race: Uint8Array
}

/**
 * The links whose name is not the rule's (LINK_NAME_OF_ROW when the link resolves to a row, none
 * otherwise): their rows, ascending, and the name code each carries.
 */
export interface LinkNameExceptions {
  readonly rows: Uint32Array
  readonly names: Uint32Array
}

export interface Links {
  readonly pere: LinkColumn
  readonly mere: LinkColumn
  readonly pere_de_mere: LinkColumn
  /** Distinct link names; entry 0 is `""`. */
  readonly names: StringArena
  /** Distinct link breed codes (`races_lien`); entry 0 is `""`. */
  readonly races: Dictionary
  /** Link occurrences per breed code, for the `races_lien` reference list. */
  readonly raceCounts: Uint32Array
}

export interface Anomalies {
  readonly annee_naissance_absente: number
  readonly annee_naissance_min: number | null
  readonly annee_naissance_max: number | null
  readonly identifiants_illisibles: number
  readonly parents_pendants: number
  readonly robe_absente: number
  readonly sans_filiation: number
  readonly slugs_non_deductibles: number
  readonly textes_invalides: number
  readonly types_invalides: number
}

export interface Provenance {
  /** The file's name as given (no directories). */
  readonly file: string
  /** BLAKE3 of the file's bytes as stored, hex. */
  readonly fingerprint: string
  readonly bytes: number
  readonly lines: number
  /** ISO 8601. */
  readonly ingestedAt: string
}

/**
 * Rows of the most frequent word prefixes, as bitsets: a one- or two-letter `nom` prefix covers
 * hundreds of thousands of postings, and its bitset costs a pass over words instead.
 */
export interface PrefixSets {
  /**
   * The token ranges `[lo, hi)` (of `TokenIndex.tokens`) that have a set, as pairs
   * (`ranges[2i]`, `ranges[2i + 1]`), sorted by `lo` then `hi`.
   */
  readonly ranges: Uint32Array
  /** Distinct rows of each range. */
  readonly counts: Uint32Array
  /** One bitset per range, one after the other (`wordsFor(size)` words each). */
  readonly bits: Uint32Array
}

/** Name-token index: sorted distinct folded words and, per word, the rows whose name holds it. */
export interface TokenIndex {
  /** The distinct folded words, sorted (code-unit order), in shared memory like every dictionary. */
  readonly tokens: Dictionary
  /** Each token's length in UTF-16 code units (a suggestion's score). */
  readonly lengths: Uint32Array
  /** Rows per token, in fame order (most descendants first, then folded name, then file order). */
  readonly rows: Postings
  /** Token ids per token length (the "rows" of length L), in token order. */
  readonly byLength: Postings
  /** Folded name (`DatasetData.nameKey`) → its distinct tokens, ascending. */
  readonly keyTokens: Postings
  readonly prefixSets: PrefixSets
}

/**
 * The loaded extract, read-only. Rows are numbered in file order (skipped lines excluded).
 * Every query reads this structure; nothing per record is materialised.
 */
export interface DatasetData {
  readonly size: number
  readonly provenance: Provenance
  readonly anomalies: Anomalies

  /** 16 bytes per row. */
  readonly ids: Uint8Array
  /**
   * Open-addressing table of rows by id (see `findRow`); -1 marks an empty slot. A power of two
   * filled to at most `MAX_LOAD` (0.7): 2^23 slots, 32 MiB, at full scale.
   */
  readonly idTable: Int32Array

  readonly nom: StringArena
  /** The source's slug where it is not slugify(nom) (absent or not deducible); `""` elsewhere. */
  readonly slug: StringArena
  /** 1 where the slug is slugify(nom) and so not stored. */
  readonly slugDeduced: Uint8Array
  /** The source's `filiation_texte` where it is not what the links spell; `""` elsewhere. */
  readonly filiation: StringArena
  /**
   * 1 where `filiation_texte` is exactly what the row's served links spell (`spellFiliation`): not
   * stored, spelled again when served.
   */
  readonly filiationSpelled: Uint8Array
  /** The row's performances, encoded (see `performances.ts`); empty when it has none. */
  readonly performances: PerformanceColumn

  readonly race: Dimension
  readonly robe: Dimension
  /** Codes 1..4 follow SEXES (`vocabulary.ts`); every row has one. */
  readonly sexe: Dimension
  readonly statut: Dimension
  /** Dimension over distinct birth years as text, in chronological order (codes one byte wide, as years are few). */
  readonly annee: Dimension
  readonly year: Int32Array

  /** Disciplines and index codes (values and rows carrying them); per-row lists below. */
  readonly discipline: Vocabulary & { readonly rows: Postings }
  readonly indice: Vocabulary & { readonly rows: Postings }
  /** Row → its distinct discipline codes. */
  readonly rowDisciplines: Postings
  /** Rows carrying performances, ascending. */
  readonly withPerformances: Uint32Array
  /** The same rows as a bitset (see `bits.ts`). */
  readonly withPerformancesBits: Uint32Array
  /**
   * Cumulative bitsets of the birth years, one after the other (set k: the rows born in one of
   * the first k + 1 years, `annee` codes 1..k+1), so that a range of years is one or two word
   * passes; empty when the years are too many (see `cumulativeCodes`).
   */
  readonly yearsUpTo: Uint32Array

  readonly links: Links
  /** Direct offspring per row (as `pere` or `mere`): birth year ascending (absent last), folded name, file order. */
  readonly progeny: Postings

  /** Rows in folded-name order, ties in file order; `nameRank` is its inverse. */
  readonly byName: Uint32Array
  readonly nameRank: Uint32Array
  /** Row → rank of its folded name among the distinct folded names: equal iff two names fold alike. */
  readonly nameKey: Uint32Array
  /** Rows by birth year ascending, ties in file order, rows without year last. */
  readonly byYear: Uint32Array
  readonly names: TokenIndex
  /** F, t, complete generations and longest line of every row, over the whole pedigree (design §6). */
  readonly genetics: GeneticColumns
  /** The shares of the large breeds' reference populations, for their mean coancestry (design §6). */
  readonly breedShares: BreedShares
  /** The whole extract's reference population's founders and ancestors (design §6), computed at load. */
  readonly wholeDiversity: HeldDiversity
  /** The whole extract's reference population, its mean F and its sums by birth year, computed at load. */
  readonly wholeExtract: WholeExtract
  /** Every index code's offspring values grouped by parent, and the parents' ranking (issue 29). */
  readonly progenyColumns: ProgenyColumns
}
