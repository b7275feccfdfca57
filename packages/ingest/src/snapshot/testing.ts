/** Test helpers of the snapshot format: a snapshot as another build would have written it. */
import { createXXHash64 } from "hash-wasm"
import { readFile, writeFile } from "node:fs/promises"

/**
 * Rewrites the snapshot at `path` as if a build with the builder signature `other` (64 hex digits,
 * so the header keeps its length) had written it: the header's `builder` replaced and its checksum
 * made valid again. Everything else is left as written.
 */
export const signedByAnotherBuilder = async (path: string, other: string): Promise<void> => {
  const bytes = await readFile(path)
  const length = bytes.readUInt32LE(12)
  const header = bytes.subarray(40, 40 + length)
  const text = header.toString("utf8")
  const rewritten = text.replace(/"builder":"[0-9a-f]{64}"/, `"builder":"${other}"`)
  if (rewritten === text || Buffer.byteLength(rewritten) !== length) throw new Error(`no builder signature to replace in ${path}`)
  header.write(rewritten, "utf8")
  bytes.set((await createXXHash64()).init().update(header).digest("binary"), 32)
  await writeFile(path, bytes)
}
