import { Dataset, type DatasetData, DatasetBuilder } from "@equides/domain"
import { Effect, Layer } from "effect"
import { stat } from "node:fs/promises"
import { basename } from "node:path"
import { fileURLToPath } from "node:url"
import { readSource, type ReadProgress } from "../source/readSource.ts"
import { SourceError } from "../source/SourceError.ts"

/** The embedded sample extract that `npm start` serves when no file is given. */
export const SAMPLE_FILE = fileURLToPath(new URL("../../sample/equides-sample.jsonl.gz", import.meta.url))

export interface LoadOptions {
  readonly onProgress?: (progress: ReadProgress) => void
}

/**
 * Reads an extract and builds its Dataset. `ingere_le` is the file's modification time: it
 * dates the extract itself, so it stays the same across restarts on the same file.
 */
export const loadDataset = Effect.fn("loadDataset")(function*(path: string, options: LoadOptions = {}) {
  const builder = new DatasetBuilder()
  const info = yield* readSource(path, (record, line) => builder.add(record, line), options)
  const modified = yield* Effect.tryPromise({
    try: () => stat(path),
    catch: (cause) => new SourceError({ file: path, reason: String(cause) })
  })
  const data: DatasetData = builder.finish({
    file: basename(path),
    fingerprint: info.fingerprint,
    bytes: info.bytes,
    lines: info.lines,
    ingestedAt: modified.mtime.toISOString()
  })
  return data
})

/** The Dataset service loaded from a file: fails, naming the file, when it cannot be read. */
export const datasetLayerFromFile = (path: string, options?: LoadOptions): Layer.Layer<Dataset, SourceError> =>
  Layer.effect(Dataset, loadDataset(path, options))
