/**
 * BLAKE3-256 of a file's bytes as read. Hashing costs about a third of the JSON parsing time, so
 * large files are hashed in a worker thread, on the second core, while the main thread parses;
 * small files are hashed in place, where starting a worker would cost more than it saves.
 */
import { createBLAKE3 } from "hash-wasm"
import { BackgroundHasher } from "./backgroundHasher.ts"

export const WORKER_THRESHOLD_BYTES = 16 << 20

export interface ChunkHasher {
  /** A promise, when there is one, asks the reader to wait before reading more. */
  readonly update: (chunk: Uint8Array) => Promise<void> | undefined
  readonly digest: () => Promise<string>
  readonly close: () => void
}

const inThreadHasher = async (): Promise<ChunkHasher> => {
  const hasher = await createBLAKE3(256)
  hasher.init()
  return {
    update: (chunk) => {
      hasher.update(chunk)
      return undefined
    },
    digest: () => Promise.resolve(hasher.digest("hex")),
    close: () => undefined
  }
}

export const hasherFor = async (totalBytes: number): Promise<ChunkHasher> => {
  if (totalBytes < WORKER_THRESHOLD_BYTES) return inThreadHasher()
  const hasher = new BackgroundHasher()
  return { update: (chunk) => hasher.update(chunk), digest: () => hasher.digest(), close: () => hasher.close() }
}
