/**
 * The bytes of a source file, read once: hashed as stored on disk (the compressed bytes of a
 * gzip file, so the fingerprint identifies the file an operator holds) and handed on decompressed.
 */
import { open, type FileHandle } from "node:fs/promises"
import { pipeline, Transform, type Readable } from "node:stream"
import { createGunzip } from "node:zlib"
import { errorMessage, type LoadFailure } from "./formatReader.ts"
import { hasherFor, type ChunkHasher } from "./hasher.ts"

// Big reads keep the per-chunk overhead (promises, hash calls, string decoding) out of the profile.
const READ_CHUNK_BYTES = 1 << 20
const INFLATE_CHUNK_BYTES = 1 << 18

export interface SourceFile {
  readonly totalBytes: number
  readonly compressed: boolean
  /** Decompressed bytes; each raw chunk goes to the hasher before the chunks it yields are handed out. */
  readonly chunks: AsyncIterator<Buffer>
  readonly bytesRead: () => number
  /** BLAKE3-256 of every byte read, in hex; meaningful once `chunks` is exhausted. */
  readonly fingerprint: () => Promise<string>
  /** Stops reading and releases the file; safe to call more than once. */
  readonly close: () => void
}

const isGzipMagic = (bytes: Uint8Array, length: number): boolean =>
  length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return typeof code === "string" ? code : undefined
}

/** Reasons an operator can act on, the system code kept for searching. */
export const inputFailure = (error: unknown): LoadFailure => {
  const code = codeOf(error)
  switch (code) {
    case "ENOENT":
      return { reason: "file not found (ENOENT)" }
    case "ENOTDIR":
      return { reason: "file not found: a component of the path is not a directory (ENOTDIR)" }
    case "EACCES":
    case "EPERM":
      return { reason: `permission denied (${code})` }
    case "EISDIR":
      return { reason: "is a directory, not a file (EISDIR)" }
  }
  if (code?.startsWith("Z_")) return { reason: `invalid gzip data: ${errorMessage(error)}` }
  return { reason: `cannot read the file: ${errorMessage(error)}` }
}

export const openSourceFile = async (path: string, gzipSuffix: boolean): Promise<SourceFile | LoadFailure> => {
  let handle: FileHandle
  try {
    handle = await open(path, "r")
  } catch (error) {
    return inputFailure(error)
  }
  let totalBytes: number
  let compressed: boolean
  try {
    const stat = await handle.stat()
    // Opening a directory for reading succeeds on Linux: only the stat tells.
    if (stat.isDirectory()) {
      await handle.close()
      return inputFailure({ code: "EISDIR" })
    }
    totalBytes = stat.size
    const magic = new Uint8Array(2)
    const { bytesRead } = await handle.read(magic, 0, 2, 0)
    compressed = gzipSuffix || isGzipMagic(magic, bytesRead)
  } catch (error) {
    await handle.close().catch(() => undefined)
    return inputFailure(error)
  }

  let hasher: ChunkHasher
  try {
    hasher = await hasherFor(totalBytes)
  } catch (error) {
    await handle.close().catch(() => undefined)
    throw error
  }
  let bytes = 0
  const hash = (chunk: Buffer): Promise<void> | undefined => {
    bytes += chunk.length
    return hasher.update(chunk)
  }

  const raw = handle.createReadStream({ start: 0, highWaterMark: READ_CHUNK_BYTES })
  // An empty `.gz` file is an empty source, not a corrupt archive.
  const inflate = compressed && totalBytes > 0
  let output: Readable = raw
  if (inflate) {
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const backlog = hash(chunk)
        if (backlog === undefined) done(null, chunk)
        else backlog.then(() => done(null, chunk), done)
      }
    })
    // Errors reach the last stream, where the consumer's iteration throws them.
    output = pipeline(raw, tap, createGunzip({ chunkSize: INFLATE_CHUNK_BYTES }), () => undefined)
  }

  async function* decompressed(): AsyncGenerator<Buffer> {
    if (inflate) {
      for await (const chunk of output) yield chunk as Buffer
    } else {
      for await (const chunk of raw) {
        const backlog = hash(chunk as Buffer)
        if (backlog !== undefined) await backlog
        yield chunk as Buffer
      }
    }
  }

  return {
    totalBytes,
    compressed,
    chunks: decompressed(),
    bytesRead: () => bytes,
    fingerprint: () => hasher.digest(),
    close: () => {
      output.destroy()
      raw.destroy()
      hasher.close()
    }
  }
}
