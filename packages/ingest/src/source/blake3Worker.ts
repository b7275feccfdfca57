/**
 * Runs in a worker thread (see `backgroundHasher.ts`). Messages: a chunk to hash, as a transferred
 * buffer and the length used in it, sent back once hashed so the main thread can reuse it;
 * `"digest"`, answered with the hex BLAKE3-256.
 */
import { parentPort } from "node:worker_threads"
import { createBLAKE3 } from "hash-wasm"

interface Chunk {
  readonly buffer: ArrayBuffer
  readonly length: number
}

const port = parentPort!
const hasher = await createBLAKE3(256)
hasher.init()
port.on("message", (message: Chunk | "digest") => {
  if (message === "digest") {
    port.postMessage({ digest: hasher.digest("hex") })
  } else {
    hasher.update(new Uint8Array(message.buffer, 0, message.length))
    port.postMessage(message, [message.buffer])
  }
})
