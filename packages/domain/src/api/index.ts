/** The HTTP API definition, its problem types and its typed client (package exports). */
export { Api } from "./Api.ts"
export { type ApiClient, EquidesApiClient, makeApiClient } from "./client.ts"
export { Bench, benchExcluded, type BenchKind, benchPlan, type BenchPlan, type BenchRequest } from "./benchPlan.ts"
export { BytesEstimate, bytesEstimate, type BytesEstimator, type EstimateQuery } from "./bytesEstimate.ts"
export { accouplementQuery, ConsanguiniteApi, DEFINITIONS_CONSANGUINITE } from "./consanguinite.ts"
export { Discovery, discoveryKey, type DiscoveryPlace, servedPath } from "./discoveryPlace.ts"
export { endpointsOf } from "./endpoints.ts"
export { Example, example, type ExampleRequest, type ExampleSubject, type RouteExample, rehearsedExamples, routeExamples, warmUpExecutions } from "./routeExample.ts"
export { descendanceQuery, EquidesApi, pedigreeQuery } from "./equides.ts"
export {
  hasFiliation,
  hasLink,
  type TextMode,
  writeEquideCsv,
  writeEquideJson,
  writeFiliation,
  writeLinkNom,
  writeSlug,
  writeUrl
} from "./equideBody.ts"
export { emptyWriter, Writer } from "./jsonBytes.ts"
export { EXPORT_CSV_TYPE, EXPORT_FORMATS, EXPORT_NDJSON_TYPE, ExportApi, Exported, type ExportQuery, exportQuery, PARQUET_TYPE } from "./exports.ts"
export { ExecutionCost, executionCost, executionUnits, QUOTA_RULE, UNIT_CPU_MS } from "./executionCost.ts"
export { DEFINITIONS_GENETIQUE, GenetiqueApi } from "./genetique.ts"
export type { GenetiqueQuery, GenetiqueRequest } from "./genetiqueBody.ts"
export { admittedValuesHint, nearestName, unknownParameterHint } from "../refusal/hints.ts"
export * as Refusals from "../refusal/messages.ts"
export { Disponibilite, Quota, Validation } from "./middleware.ts"
export { completeDocument, operationsOf, REFERENCE_PATH } from "./openapi.ts"
export { NoQuery, type ParamDoc, ParamDocs, paramDocsOf, readInt } from "./params.ts"
export {
  DOCUMENTATION_PATH,
  equideNotFound,
  notAMare,
  parentNotFound,
  sameParent,
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
export { DocumentOpenApi, PageAccueil, Probe, SanteIndisponible, ServiceApi } from "./service.ts"
export { etalonsQuery, genetiqueQuery, listQuery, repartitionQuery, reproducteursQuery, searchQuery } from "./queries.ts"
export { StatsApi } from "./stats.ts"
export { type ExecutionFamily, executionFamily, NotWarmed, notWarmed, OnWorkers, onWorkers } from "./workers.ts"
export {
  answer,
  etalonsAnswer,
  type EtalonsQuery,
  type Execution,
  isBounded,
  listAnswer,
  type ListQuery,
  listWithBreakdowns,
  queryPairs,
  repartitionAnswer,
  type RepartitionQuery,
  reproducteursAnswer,
  type ReproducteursQuery,
  type SearchQuery,
  suggestAnswer
} from "./answers.ts"
