/**
 * The deterministic extract generator: same seed and count, same lines, on any machine.
 */
import { LineBuilder, type RawLine, REGISTRY_RACE_TIME_SHARE } from "./rawLine.ts"
import { buildPopulation, type Population } from "./population.ts"

export interface GenerateOptions {
  /** An integer in [0, 2^32). */
  readonly seed: number
  /** Number of lines, 0 or more. */
  readonly count: number
  /**
   * `race` polluted this many times as much as the registry's own extract (see
   * `REGISTRY_RACE_TIME_SHARE`): at 30, about 352 000 distinct race-time values at 4.45 M lines. Absent: the
   * generator's own light pollution only. Every other field, and `race` on the lines it does not
   * pollute, is what the same seed and count give without it.
   */
  readonly racePollution?: number
}

export const MAX_SEED = 2 ** 32 - 1
/** `racePollution` at which every line's `race` is a race time. */
export const MAX_RACE_POLLUTION = Math.floor(1 / REGISTRY_RACE_TIME_SHARE)

const checkOptions = ({ seed, count, racePollution }: GenerateOptions): void => {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(`seed must be an integer in [0, ${MAX_SEED}], got ${seed}`)
  }
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a natural number, got ${count}`)
  if (racePollution !== undefined && !(Number.isFinite(racePollution) && racePollution >= 0 && racePollution <= MAX_RACE_POLLUTION)) {
    throw new RangeError(`racePollution must be a number in [0, ${MAX_RACE_POLLUTION}], got ${racePollution}`)
  }
}

/**
 * The lines of an extract, in file order. The parentage graph is built on the first `next()`
 * (a few seconds at 4.45 million); each line is then built on demand, so memory stays flat.
 */
export function* generateExtract(options: GenerateOptions): Generator<RawLine, void, undefined> {
  checkOptions(options)
  const population = buildPopulation(options.seed, options.count)
  const builder = new LineBuilder(population, options.racePollution ?? 0)
  for (let k = 0; k < population.count; k++) yield builder.line(population.order[k])
}

/** The graph behind a generated extract, for tests and diagnostics. */
export const generatePopulation = (options: GenerateOptions): Population => {
  checkOptions(options)
  return buildPopulation(options.seed, options.count)
}

/** The embedded sample (`packages/ingest/sample/equides-sample.jsonl.gz`) is this extract. */
export const SAMPLE_OPTIONS: GenerateOptions = { seed: 1, count: 30_000 }
