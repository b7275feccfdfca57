/**
 * The extract generator (`@equides/ingest/generate`): apart from the package's entry point, so
 * that the server, which only loads extracts, does not load it (its word tables and calibrations
 * are built when the module is, about 50 ms of the main thread at every start).
 */
export {
  generateExtract,
  type GenerateOptions,
  generatePopulation,
  MAX_SEED,
  SAMPLE_OPTIONS
} from "./generateExtract.ts"
export type { Population } from "./population.ts"
export type { RawLine, RawLink } from "./rawLine.ts"
export {
  type ExtractFormat,
  type ExtractTarget,
  extractTargetOf,
  serializeExtract,
  writeExtract,
  type WriteSummary
} from "./writeExtract.ts"
