/**
 * BLAKE3 of a stream of chunks, computed in a worker thread (see `blake3Worker.ts`). The caller's
 * buffers are never retained: each chunk is copied into a buffer transferred to the worker, which
 * sends it back once hashed; reusing those buffers avoids faulting in fresh memory for every chunk.
 */
import { Worker } from "node:worker_threads"

// Parsing is far slower than hashing, so the backlog stays small; the cap only guards memory if
// a caller ever reads without parsing.
const MAX_BACKLOG_BYTES = 64 << 20

interface Chunk {
  readonly buffer: ArrayBuffer
  readonly length: number
}

type Reply = Chunk | { readonly digest: string }

export class BackgroundHasher {
  readonly #worker: Worker
  #backlog = 0
  #free: Array<ArrayBuffer> = []
  #failure: Error | undefined
  #waiters: Array<{ readonly resolve: () => void; readonly reject: (error: Error) => void }> = []
  #digest: { readonly resolve: (hex: string) => void; readonly reject: (error: Error) => void } | undefined

  constructor() {
    this.#worker = new Worker(new URL("./blake3Worker.ts", import.meta.url))
    this.#worker.on("message", (reply: Reply) => {
      if ("buffer" in reply) {
        this.#backlog -= reply.length
        this.#free.push(reply.buffer)
        if (this.#backlog <= MAX_BACKLOG_BYTES / 2) this.#wake()
      } else if ("digest" in reply) {
        this.#digest?.resolve(reply.digest)
      }
    })
    this.#worker.on("error", (error) => this.#fail(error))
    this.#worker.on("exit", (code) => this.#fail(new Error(`BLAKE3 worker exited with code ${code}`)))
  }

  #wake(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const waiter of waiters) waiter.resolve()
  }

  #fail(error: Error): void {
    this.#failure ??= error
    for (const waiter of this.#waiters) waiter.reject(error)
    this.#waiters = []
    this.#digest?.reject(error)
  }

  /** Queues a chunk; the promise, when there is one, says to wait before reading more. */
  update(chunk: Uint8Array): Promise<void> | undefined {
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    if (chunk.length === 0) return undefined
    let buffer = this.#free.pop()
    if (buffer === undefined || buffer.byteLength < chunk.length) buffer = new ArrayBuffer(chunk.length)
    new Uint8Array(buffer, 0, chunk.length).set(chunk)
    this.#backlog += chunk.length
    const message: Chunk = { buffer, length: chunk.length }
    this.#worker.postMessage(message, [buffer])
    if (this.#backlog <= MAX_BACKLOG_BYTES) return undefined
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }))
  }

  digest(): Promise<string> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    return new Promise((resolve, reject) => {
      this.#digest = { resolve, reject }
      this.#worker.postMessage("digest")
    })
  }

  close(): void {
    this.#worker.removeAllListeners("exit")
    void this.#worker.terminate()
  }
}
