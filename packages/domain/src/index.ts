export * from "./dataset/Dataset.ts"
export * from "./dataset/DatasetData.ts"
export { DatasetBuilder } from "./dataset/build/DatasetBuilder.ts"
export { DatasetAssembler, type Rejection } from "./dataset/build/DatasetAssembler.ts"
export { RecordEncoder } from "./dataset/build/RecordEncoder.ts"
export type { EncoderSummary, RowBatch } from "./dataset/build/RowBatch.ts"
export { findRow } from "./dataset/idTable.ts"
export { linkName } from "./dataset/linkNames.ts"
export * from "./dataset/ids.ts"
export * from "./dataset/SourceRecord.ts"
export { type Dictionary, dictionarySize, dictionaryValue, dictionaryValues, type Vocabulary } from "./dataset/columns.ts"
export * from "./text/fold.ts"
export * from "./vocabulary.ts"
export * from "./schemas/index.ts"
export {
  anneeOf,
  equide,
  findEquide,
  idOf,
  linkReference,
  nomOf,
  performancesOf,
  raceOf,
  resume,
  sexeOf,
  slugOf,
  textOf,
  URL_FICHE_MODELE,
  urlFiche
} from "./query/record.ts"
export * from "./query/pedigree.ts"
export * from "./query/descendance.ts"
export { statistiquesDescendance } from "./query/progenyStats.ts"
export {
  PRODUITS_MIN_DEFAUT,
  PRODUITS_MIN_MAX,
  PRODUITS_MIN_MIN,
  reproducteurs,
  REPRODUCTEURS_SEXE_DEFAUT,
  REPRODUCTEURS_SEXES
} from "./query/reproducteurs.ts"
export {
  accouplement,
  consanguinite,
  CONSANGUINITE_GENERATIONS_DEFAUT,
  CONSANGUINITE_GENERATIONS_MAX,
  CONSANGUINITE_GENERATIONS_MIN
} from "./query/consanguinite/consanguinite.ts"
export { foalInbreeding } from "./query/consanguinite/coancestry.ts"
export type { Parentage } from "./query/consanguinite/cutGraph.ts"
export { foalCoefficient } from "./query/etalons.ts"
export { PRINCIPAUX_ANCETRES } from "./genetics/diversity.ts"
export { breedReference, genetique, statsGenetique, unheldBreedRow } from "./query/genetique.ts"
export { prepareQueries } from "./query/prepareQueries.ts"
export { equivalentGenerationsOf, type GeneticColumns, inbreedingOf } from "./genetics/columns.ts"
export * from "./query/stats.ts"
export * from "./query/meta.ts"
export * from "./query/discovery.ts"
export * from "./api/index.ts"
export { InvalidParameter } from "./query/errors.ts"
export { quote } from "./refusal/hints.ts"
export { type FilterInput, resolveFilters } from "./query/filters.ts"
export { select } from "./query/select.ts"
export { type RowBlocks, selectionBlocks } from "./query/selectionBlocks.ts"
export { listPage, paginationLinks } from "./query/paginate.ts"
export { checkQ, clampSuggestLimite, suggest } from "./query/suggest.ts"
export { referential } from "./query/referential.ts"
export { DEFAULT_REPARTITION_DIMENSION, repartition } from "./query/repartition.ts"
export { type QueryResult } from "./query/errors.ts"
export { isUnfiltered, NO_FILTERS, type ResolvedFilters } from "./query/filters.ts"
export {
  DEFAULT_LIMITE,
  DEFAULT_TRI,
  MAX_LIMITE,
  MAX_OFFSET,
  MIN_LIMITE,
  type Page,
  pageUri,
  type PaginationLinks
} from "./query/paginate.ts"
export {
  DEFAULT_SUGGEST_LIMITE,
  MAX_SUGGEST_LIMITE,
  MIN_SUGGEST_LIMITE,
  type Suggestion as ScoredSuggestion,
  type SuggestStats
} from "./query/suggest.ts"
export { isReferentielDimension, MAX_MODALITES } from "./query/referential.ts"
export {
  clampRepartitionLimite,
  DEFAULT_REPARTITION_LIMITE,
  isRepartitionDimension,
  MAX_REPARTITION_LIMITE,
  MIN_REPARTITION_LIMITE
} from "./query/repartition.ts"
