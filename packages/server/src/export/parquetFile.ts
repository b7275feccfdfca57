/**
 * The Parquet extract on disk (issue 30, item 4): one file per dataset fingerprint in
 * `EXPORT_DIR`, written once (in a thread of its own: `parquetThread.ts`) on its first request or
 * at start (`EXPORT_PARQUET=start`), then served from disk with `Range` (RFC 9110 14: one range,
 * `bytes=a-b`, `a-` or `-n`, 206 with `Content-Range`; a range past the end 416; several ranges, or
 * an `If-Range` naming another representation, the whole file).
 */
import { PARQUET_TYPE } from "@equides/domain"
import { stat } from "node:fs/promises"
import type { IncomingHttpHeaders } from "node:http"
import type { Own } from "../own.ts"
import type { Exchange } from "../admission/Gatekeeper.ts"

export interface ParquetFile {
  readonly path: string
  readonly name: string
  readonly size: number
}

/** The file at `path`, written by `write` first when it is not there; one write at a time whoever asks. */
export const makeParquetOf = (path: string, name: string, write: (path: string) => Promise<void>): () => Promise<ParquetFile> => {
  let file: Promise<ParquetFile> | undefined
  const sized = () => stat(path).then((stats) => ({ path, name, size: stats.size }))
  return () => {
    file ??= sized().catch(() => write(path).then(sized))
    // A failed write is not kept: the next request tries again.
    file.catch(() => (file = undefined))
    return file
  }
}

/** Bytes `start`..`end` (inclusive), as `createReadStream` takes them. */
export interface ByteRange {
  readonly start: number
  readonly end: number
}

const RANGE = /^bytes=(\d*)-(\d*)$/

/** The one range `header` asks of `size` bytes; `undefined` for none (or one we answer whole), `"unsatisfiable"` past the end. */
export const rangeOf = (header: string | undefined, size: number): ByteRange | "unsatisfiable" | undefined => {
  const match = header === undefined ? null : RANGE.exec(header.trim())
  if (match === null) return undefined
  const [, first, last] = match
  if (first === "" && last === "") return undefined
  if (first === "") {
    const suffix = Number(last)
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1)
  if (last !== "" && Number(last) < start) return undefined
  return start >= size ? "unsatisfiable" : { start, end }
}

/** The head of the file's answer to `exchange`, and the bytes its body reads. */
export const parquetHead = (file: ParquetFile, exchange: Exchange, headers: IncomingHttpHeaders): { readonly own: Own; readonly range: ByteRange } => {
  const whole = { start: 0, end: Math.max(0, file.size - 1) }
  if (exchange.wildcard) return { own: { status: 304, headers: {}, body: undefined }, range: whole }
  const common = { "content-type": PARQUET_TYPE, "accept-ranges": "bytes", "content-disposition": `attachment; filename="${file.name}"` }
  const ifRange = headers["if-range"]
  const range = ifRange === undefined || ifRange === exchange.etag ? rangeOf(headers.range, file.size) : undefined
  if (range === "unsatisfiable") {
    return { own: { status: 416, headers: { ...common, "content-range": `bytes */${file.size}`, "content-length": "0" }, body: undefined }, range: whole }
  }
  if (range === undefined) return { own: { status: 200, headers: { ...common, "content-length": String(file.size) }, body: undefined }, range: whole }
  return {
    own: {
      status: 206,
      headers: { ...common, "content-range": `bytes ${range.start}-${range.end}/${file.size}`, "content-length": String(range.end - range.start + 1) },
      body: undefined
    },
    range
  }
}
