/** The HTTP API definition, its problem types and its typed client (package exports). */
export { Api } from "./Api.ts"
export { type ApiClient, EquidesApiClient, makeApiClient } from "./client.ts"
export { ConsanguiniteApi, DEFINITIONS_CONSANGUINITE } from "./consanguinite.ts"
export { descendanceQuery, EquidesApi, listQuery, pedigreeQuery } from "./equides.ts"
export { EXPORT_CSV_TYPE, EXPORT_FORMATS, EXPORT_NDJSON_TYPE, ExportApi, exportQuery, PARQUET_TYPE } from "./exports.ts"
export { ExecutionCost, executionCost, executionUnits, QUOTA_RULE, UNIT_CPU_MS } from "./executionCost.ts"
export { DEFINITIONS_GENETIQUE, GenetiqueApi, genetiqueQuery } from "./genetique.ts"
export type { GenetiqueQuery, GenetiqueRequest } from "./genetiqueBody.ts"
export { admittedValuesHint, nearestName, unknownParameterHint } from "../refusal/hints.ts"
export * as Refusals from "../refusal/messages.ts"
export { Disponibilite, Quota, Validation } from "./middleware.ts"
export { completeDocument, operationsOf, REFERENCE_PATH } from "./openapi.ts"
export { NoQuery, type ParamDoc, ParamDocs, paramDocsOf, readInt } from "./params.ts"
export {
  DOCUMENTATION_PATH,
  Introuvable,
  MethodeNonAdmise,
  PROBLEM_TYPES,
  type ProblemeApi,
  type ProblemType,
  ParametreInvalide,
  RequeteInvalide,
  ServiceSurcharge,
  TropDeRequetes
} from "./problems.ts"
export { ReferentielsApi } from "./referentiels.ts"
export { SearchApi } from "./search.ts"
export { DocumentOpenApi, PageAccueil, SanteIndisponible, ServiceApi } from "./service.ts"
export { repartitionQuery, reproducteursQuery, StatsApi } from "./stats.ts"
export {
  answer,
  type Execution,
  type ExportQuery,
  exportRowsAnswer,
  isBounded,
  listAnswer,
  type ListQuery,
  listWithBreakdowns,
  queryPairs,
  repartitionAnswer,
  type RepartitionQuery,
  reproducteursAnswer,
  type ReproducteursQuery,
  rowsOfBytes,
  type SearchQuery,
  suggestAnswer
} from "./answers.ts"
