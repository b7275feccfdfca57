/**
 * One kept-alive HTTP/1.1 connection, its GETs written and its answers read by hand: the single
 * executions' client (`sequence.ts`), where each request is timed one at a time and a family's
 * first 50 are held to 3× its warm p99 (issue 24). Node's HTTP client made each answer a message,
 * its headers, a parser's callbacks, a timer and a fresh buffer outside the heap for every read:
 * its thread's own collections fell inside the timed requests, at the same places in every run
 * (the pedigrees' 35th–45th, 1.7–4.1 ms of the client's in requests of 2.7–5.7 ms; the 8th
 * family's first requests), and were reported as the server's first use. Here every read lands in
 * one buffer given to the socket (`onread`), and an answer leaves nothing but its status, size and
 * time; what the status line and headers say is read from the bytes.
 */
import { connect, type Socket } from "node:net"

export interface RawAnswer {
  /** 0 when there was no answer (the connection failed or closed first). */
  readonly status: number
  /** Body bytes (a chunked body's data, its framing left out). */
  readonly bytes: number
  /** Milliseconds from the call to the end of the body. */
  readonly ms: number
}

const LF = 10

/** Where the reading of an answer is. */
const Reading = { Head: 0, Body: 1, ChunkSize: 2, ChunkData: 3, ChunkEnd: 4, Trailer: 5, UntilClose: 6 } as const
type Reading = (typeof Reading)[keyof typeof Reading]

const READ_BUFFER_BYTES = 256 * 1024

export class RawConnection {
  private readonly base: URL
  private socket: Socket | undefined
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES)
  private answer: ((answer: RawAnswer) => void) | undefined
  private started = 0
  private reading: Reading = Reading.Head
  /** The head read so far (latin1), or the chunk size line. */
  private text = ""
  private status = 0
  private bytes = 0
  /** Body or chunk bytes still to come. */
  private remaining = 0
  private closeAfter = false

  constructor(base: URL) {
    this.base = base
  }

  /** GET `path` (encoded as `new URL` does, as Node's client sends it), after the previous answer. */
  get(path: string): Promise<RawAnswer> {
    return new Promise((resolve) => {
      const url = new URL(path, this.base)
      this.answer = resolve
      this.reading = Reading.Head
      this.text = ""
      this.status = 0
      this.bytes = 0
      this.closeAfter = false
      this.started = performance.now()
      this.open().write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${this.base.host}\r\n\r\n`, "latin1")
    })
  }

  close(): void {
    this.socket?.destroy()
    this.socket = undefined
  }

  private open(): Socket {
    if (this.socket !== undefined && !this.socket.destroyed) return this.socket
    const socket = connect({
      host: this.base.hostname,
      port: Number(this.base.port),
      noDelay: true,
      onread: {
        buffer: this.buffer,
        callback: (read: number) => {
          this.consume(read)
          return true
        }
      }
    })
    // An answer read until the connection's end is whole then; any other is lost.
    const ended = () => {
      // A connection closed here (`close`) is not the one an answer is awaited on.
      if (this.socket !== socket) return
      this.socket = undefined
      if (this.answer === undefined) return
      if (this.reading === Reading.UntilClose) this.settle(this.status, this.bytes)
      else this.settle(0, 0)
    }
    socket.once("error", ended)
    socket.once("close", ended)
    this.socket = socket
    return socket
  }

  private consume(length: number): void {
    let at = 0
    while (at < length && this.answer !== undefined) {
      switch (this.reading) {
        case Reading.Head: {
          at = this.readLine(at, length)
          if (this.text.endsWith("\r\n\r\n")) this.headRead()
          break
        }
        case Reading.Body:
        case Reading.ChunkData: {
          const taken = Math.min(this.remaining, length - at)
          this.bytes += taken
          this.remaining -= taken
          at += taken
          if (this.remaining === 0) {
            if (this.reading === Reading.Body) this.settle(this.status, this.bytes)
            else this.reading = Reading.ChunkEnd
          }
          break
        }
        case Reading.ChunkEnd: {
          // The CRLF after a chunk's data.
          if (this.buffer[at++] === LF) this.reading = Reading.ChunkSize
          break
        }
        case Reading.ChunkSize: {
          at = this.readLine(at, length)
          if (this.text.endsWith("\n")) {
            this.remaining = Number.parseInt(this.text, 16)
            this.text = ""
            this.reading = this.remaining > 0 ? Reading.ChunkData : Reading.Trailer
          }
          break
        }
        case Reading.Trailer: {
          // Trailer lines, if any, then an empty line.
          at = this.readLine(at, length)
          if (this.text === "\r\n") this.settle(this.status, this.bytes)
          else if (this.text.endsWith("\n")) this.text = ""
          break
        }
        case Reading.UntilClose: {
          this.bytes += length - at
          at = length
          break
        }
      }
    }
  }

  /** Adds to `text` the read's bytes from `at` to just past the next LF (or to `length`); where they end. */
  private readLine(at: number, length: number): number {
    let end = at
    while (end < length && this.buffer[end] !== LF) end++
    if (end < length) end++
    this.text += this.buffer.toString("latin1", at, end)
    return end
  }

  private headRead(): void {
    const head = this.text
    this.text = ""
    this.status = Number(head.slice(9, 12))
    const lower = head.toLowerCase()
    this.closeAfter = /\r\nconnection:[ \t]*close/.test(lower)
    const length = /\r\ncontent-length:[ \t]*(\d+)/.exec(lower)
    if (this.status === 204 || this.status === 304) this.settle(this.status, 0)
    else if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) this.reading = Reading.ChunkSize
    else if (length !== null) {
      this.remaining = Number(length[1])
      this.reading = Reading.Body
      if (this.remaining === 0) this.settle(this.status, 0)
    } else this.reading = Reading.UntilClose
  }

  /** Ends the awaited answer (status 0: none came whole). */
  private settle(status: number, bytes: number): void {
    const resolve = this.answer
    this.answer = undefined
    if (status !== 0 && this.closeAfter) this.close()
    resolve?.({ status, bytes, ms: performance.now() - this.started })
  }
}
