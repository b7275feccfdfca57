import { Dataset, DatasetAssembler, type DatasetData } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Stats } from "node:fs"
import { stat } from "node:fs/promises"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"
import { readSnapshot, writeSnapshot } from "../snapshot/Snapshot.ts"
import type { SnapshotError } from "../snapshot/SnapshotError.ts"
import { readWork, type WorkProgress } from "../progress/workProgress.ts"
import { readSourceInto } from "../source/readSource.ts"
import { SourceError } from "../source/SourceError.ts"

/** The embedded sample extract that `npm start` serves when no file is given. */
export const SAMPLE_FILE = fileURLToPath(new URL("../../sample/equides-sample.jsonl.gz", import.meta.url))

/** Where the snapshot of a source file is looked for, and written by default. */
export const SNAPSHOT_SUFFIX = ".snapshot"
export const snapshotPathOf = (source: string): string => source + SNAPSHOT_SUFFIX

/**
 * The steps of a load: reading the file (or its snapshot), then, for a file, building the
 * Dataset's indexes and computing every record's genetics (F, generations); `snapshotSource` then
 * writes the snapshot.
 */
export type LoadPhase = "reading" | "indexing" | "genetics" | "writing"

export interface LoadOptions {
  /** Parse on a worker thread (JSON Lines only); by default for large files (see `readSourceInto`). */
  readonly worker?: boolean
  /** Told each step as it starts. */
  readonly onPhase?: (phase: LoadPhase) => void
  /** Told how far the reading is, about four times a second and once at its end. */
  readonly onProgress?: (progress: WorkProgress) => void
}

const statOf = (path: string): Effect.Effect<Stats, SourceError> =>
  Effect.tryPromise({
    try: () => stat(path),
    catch: (cause) => new SourceError({ file: path, reason: cause instanceof Error ? cause.message : String(cause) })
  })

/**
 * Reads an extract and builds its Dataset. `ingere_le` is the file's modification time: it
 * dates the extract itself, so it stays the same across restarts on the same file.
 */
export const ingestSource = Effect.fn("ingestSource")(function*(path: string, options: LoadOptions = {}) {
  const before = yield* statOf(path)
  const assembler = new DatasetAssembler()
  const { onProgress } = options
  options.onPhase?.("reading")
  const info = yield* readSourceInto(path, assembler, {
    ...(options.worker === undefined ? {} : { worker: options.worker }),
    ...(onProgress === undefined ? {} : { onProgress: (progress) => onProgress(readWork(progress)) })
  })
  options.onPhase?.("indexing")
  const data: DatasetData = assembler.finish(info.encoded, {
    file: basename(path),
    fingerprint: info.fingerprint,
    bytes: info.bytes,
    lines: info.lines,
    ingestedAt: before.mtime.toISOString()
  }, () => options.onPhase?.("genetics"))
  return { data, source: before }
})

/**
 * The Dataset of a source file: from its snapshot (`FILE.snapshot`) when one exists and was
 * written from this very file (same size and modification time, same format, shape and builder, intact),
 * else by ingesting the file. A snapshot that is refused is reported and never served.
 */
export const loadDataset = Effect.fn("loadDataset")(function*(path: string, options: LoadOptions = {}) {
  const source = yield* statOf(path)
  const snapshot = snapshotPathOf(path)
  const hasSnapshot = yield* Effect.promise(() => stat(snapshot).then(() => true, () => false))
  if (hasSnapshot) {
    const { onProgress } = options
    options.onPhase?.("reading")
    const started = performance.now()
    const onRead = onProgress === undefined ? undefined : (bytes: number, total: number) =>
      onProgress({ fraction: total > 0 ? bytes / total : 1, bytes, elapsedMs: performance.now() - started })
    const fromSnapshot = yield* readSnapshot(snapshot, { size: source.size, mtimeMs: source.mtimeMs }, onRead).pipe(
      Effect.map((data): DatasetData | undefined => data),
      Effect.catch((error: SnapshotError) => Effect.as(Effect.logWarning(`snapshot refused, loading the source: ${error.message}`), undefined))
    )
    if (fromSnapshot !== undefined) return fromSnapshot
  }
  const { data } = yield* ingestSource(path, options)
  return data
})

/** Ingests a source file and writes its snapshot; answers the Dataset. */
export const snapshotSource = Effect.fn("snapshotSource")(function*(path: string, out: string, options: LoadOptions = {}) {
  const { data, source } = yield* ingestSource(path, options)
  options.onPhase?.("writing")
  yield* writeSnapshot(data, out, { size: source.size, mtimeMs: source.mtimeMs })
  return data
})

/** The Dataset service loaded from a file: fails, naming the file, when it cannot be read. */
export const datasetLayerFromFile = (path: string, options?: LoadOptions): Layer.Layer<Dataset, SourceError> =>
  Layer.effect(Dataset, loadDataset(path, options))
