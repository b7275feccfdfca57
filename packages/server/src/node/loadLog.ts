/**
 * The start's long wait said in the log: each phase of the load as it begins (reading the file or
 * its snapshot, indexing, collecting the memory the load left), and a line every 10 % of the
 * reading, so that an operator watching a start of several seconds sees where it is. Each line
 * carries the phase as the `phase` annotation too.
 */
import { type LoadOptions, type LoadPhase, Tenths, type WorkProgress } from "@equides/ingest"
import * as Effect from "effect/Effect"

/** The phases of a server's start: the load's own, then the collection of its leftovers. */
export type StartPhase = LoadPhase | "collecting"

const PHASE_NAMES: Readonly<Record<StartPhase, string>> = {
  reading: "lecture",
  indexing: "indexation",
  genetics: "génétique (consanguinité et générations de chaque fiche)",
  writing: "écriture du snapshot",
  collecting: "collecte de la mémoire"
}

const logPhaseLine = (phase: StartPhase, message: string): Effect.Effect<void> =>
  Effect.logInfo(message).pipe(Effect.annotateLogs("phase", phase))

/** The line of a phase as it begins. */
export const logPhase = (phase: StartPhase): Effect.Effect<void> => logPhaseLine(phase, `Chargement : ${PHASE_NAMES[phase]}`)

const MB = 1e6

/** `Chargement : lecture 40 % (1780000 lignes, 420 Mo en 8.0 s)`; a snapshot has no lines. */
export const readingLine = (tenth: number, progress: WorkProgress): string => {
  const lines = progress.lines === undefined ? "" : `${progress.lines} lignes, `
  return `Chargement : lecture ${tenth * 10} % (${lines}${Math.round(progress.bytes / MB)} Mo en ${(progress.elapsedMs / 1000).toFixed(1)} s)`
}

/**
 * The options of a load that log its phases and its reading's tenths with the loggers and level of
 * the calling fiber (the load reports from plain callbacks, outside any fiber).
 */
export const loadLogging: Effect.Effect<LoadOptions> = Effect.map(Effect.context<never>(), (context) => {
  const log = (effect: Effect.Effect<void>) => Effect.runSyncWith(context)(effect)
  let tenths = new Tenths()
  return {
    onPhase: (phase) => {
      // A refused snapshot is followed by a reading of the source, counted from 0 again.
      if (phase === "reading") tenths = new Tenths()
      log(logPhase(phase))
    },
    onProgress: (progress) => {
      const tenth = tenths.cross(progress.fraction)
      if (tenth !== undefined) log(logPhaseLine("reading", readingLine(tenth, progress)))
    }
  }
})
