/**
 * The front door's export lane (issue 30): `GET /v1/export/equides` and
 * `/v1/export/equides.parquet` streamed from the Node server's `request` event, outside the
 * concurrency gate (an export runs for seconds or minutes) but within their own limit,
 * `EXPORT_CONCURRENCY` (beyond it: a 503 with `Retry-After`). A selection's query is decoded with
 * the API's own parameters, its filters resolved here and its rows selected a block at a time as
 * the body is written (`selectionBlocks`); the
 * Parquet file is written once per dataset in a thread of its own (`parquetThread.ts`), then read from disk (`Range`
 * honoured). Either body is charged to the quota as it goes (`Pacer`) and follows the socket's
 * back-pressure (`streamExport`). What the lane refuses (a parameter, a value) goes on to the
 * pipeline, whose handler answers the 400 before any byte, as for every route.
 */
import { Api, type DatasetData, endpointsOf, Exported, exportQuery, NoQuery, ServiceSurcharge } from "@equides/domain"
import * as Context from "effect/Context"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { createReadStream } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { ownOf, renderProblem } from "../admission/answer.ts"
import type { Own } from "../own.ts"
import type { Coding } from "../admission/coding.ts"
import { type Exchange, type Gatekeeper, handOver } from "../admission/Gatekeeper.ts"
import { orRefused } from "../execution/directLane.ts"
import type { DefectReport } from "../node/defects.ts"
import { internalError } from "../problems.ts"
import type { Registry } from "../telemetry.ts"
import { collectAfterExports } from "./collectAfterExports.ts"
import { exportHead, exportRows } from "./exportBody.ts"
import { exportBody, paced, streamExport } from "./exportStream.ts"
import { Pacer, type PacingClock, realClock } from "./pacing.ts"
import { parquetHead, type ParquetFile } from "./parquetFile.ts"

/** The routes the lane serves, by template, from their definitions (`Exported`): a selection's rows or the Parquet file. */
export const EXPORT_ROUTES: ReadonlyMap<string, "rows" | "parquet"> = new Map(endpointsOf(Api).flatMap((endpoint) => {
  const exported = Context.get(endpoint.annotations, Exported)
  return exported === undefined ? [] : [[endpoint.path, exported] as const]
}))

/** Whether the export lane serves requests of `route`. */
export const isExportRoute = (route: string | undefined): boolean => route !== undefined && EXPORT_ROUTES.has(route)

/** Whether a request target (path and query) is an export's, before any admission. */
export const isExportTarget = (url: string | undefined): boolean => {
  if (url === undefined) return false
  const q = url.indexOf("?")
  return EXPORT_ROUTES.has(q < 0 ? url : url.slice(0, q))
}

/** Called once an exchange's answer is sent (or, for a stream, its head): metrics, the debug line. */
export type Served = (exchange: Exchange, status: number) => void

/** Seconds a caller refused for the export limit is told to wait: an export lasts seconds to minutes. */
export const EXPORT_RETRY_AFTER_SECONDS = 10

/** A defect before any byte (the selection or the Parquet write failed): the 500 problem the pipeline answers. */
const internal = ownOf(internalError)!

const busy = renderProblem(
  new ServiceSurcharge({
    detail: "Trop d'exports sont en cours : réessayer après le délai de Retry-After."
  }),
  { "retry-after": String(EXPORT_RETRY_AFTER_SECONDS) }
)

/** The Parquet file of the served dataset, written first when it is not on disk yet. */
export type ParquetOf = () => Promise<ParquetFile>

/** What an export sends: its head (status and own headers), its coding and, for a 200 or 206, its body's chunks. */
interface Prepared {
  readonly own: Own
  readonly coding: Coding
  readonly body: (pacer: Pacer, signal: AbortSignal) => AsyncIterable<Uint8Array>
}

export type ExportLane = (exchange: Exchange, request: IncomingMessage, response: ServerResponse, handOn: () => void) => void

export interface ExportLimits {
  /** Exports streaming now. */
  readonly running: () => number
}

export const makeExportLane = (
  gatekeeper: Gatekeeper,
  data: DatasetData,
  registry: Registry,
  parquetOf: ParquetOf,
  concurrency: number,
  rate: number,
  onDefect: DefectReport,
  onServed: Served | undefined = undefined,
  clock: PacingClock = realClock,
  collect: (() => void) | undefined = globalThis.gc
): ExportLane & ExportLimits => {
  const served = (exchange: Exchange, status: number): void => {
    registry.record(exchange.label, status, (performance.now() - exchange.started) / 1000)
    onServed?.(exchange, status)
  }
  const decodeSelection = orRefused(Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(Schema.Struct(exportQuery.fields))))
  const decodeNone = orRefused(Schema.decodeUnknownExit(NoQuery))
  let running = 0
  const ended = collectAfterExports(() => running, collect)

  /** The export `exchange` asks for, once its query is decoded (`undefined`: refused). */
  const preparing = (exchange: Exchange, request: IncomingMessage): (() => Promise<Prepared | undefined>) | undefined => {
    if (exchange.route !== undefined && EXPORT_ROUTES.get(exchange.route) === "parquet") {
      if (decodeNone(exchange.url) === undefined) return undefined
      return () =>
        parquetOf().then((file) => {
          const { own, range } = parquetHead(file, exchange, request.headers)
          return { own, coding: "identity", body: (pacer, signal) => paced(createReadStream(file.path, range), pacer, signal) }
        })
    }
    const query = decodeSelection(exchange.url)
    if (query === undefined) return undefined
    const format = query.format ?? "ndjson"
    // The filters resolved here, the rows selected a block at a time as the body is written:
    // the first byte waits for no selection (nor for a query worker's turn).
    return () => {
      const rows = exportRows(data, query)
      return Promise.resolve(Result.isFailure(rows) ? undefined : {
        own: exportHead(data, format, exchange.wildcard),
        coding: exchange.negotiated.coding,
        body: (pacer: Pacer, signal: AbortSignal) => exportBody(data, rows.success, format, pacer, signal)
      })
    }
  }

  const lane = (exchange: Exchange, request: IncomingMessage, response: ServerResponse, handOn: () => void): void => {
    const prepare = preparing(exchange, request)
    if (prepare === undefined) {
      handOver(request, exchange)
      handOn()
      return
    }
    if (running >= concurrency) {
      const answer = gatekeeper.shaped(exchange, busy)
      registry.recordUnavailable("export_limit")
      response.writeHead(answer.status, answer.headers)
      response.end(exchange.method === "HEAD" ? undefined : answer.body)
      served(exchange, answer.status)
      return
    }
    running++
    const abort = new AbortController()
    let released = false
    const release = (): void => {
      if (released) return
      released = true
      running--
      abort.abort()
      ended()
    }
    // A client that leaves, at any step: its slot is freed and the stream stops at once.
    response.once("close", release)
    prepare().then((prepared) => {
      if (response.destroyed) return release()
      if (prepared === undefined) {
        release()
        handOver(request, exchange)
        handOn()
        return
      }
      const head = gatekeeper.shaped(exchange, prepared.own)
      const { coding } = prepared
      const streams = head.status === 200 || head.status === 206
      response.writeHead(head.status, coding === "identity" || !streams ? head.headers : { ...head.headers, "content-encoding": coding })
      if (exchange.method === "HEAD" || !streams) {
        response.end()
        served(exchange, head.status)
        return release()
      }
      const pacer = new Pacer(gatekeeper.quota, exchange.caller, rate, clock)
      streamExport(prepared.body(pacer, abort.signal), coding, response).then(
        () => served(exchange, head.status),
        () => undefined
      ).finally(release)
    }, (defect: unknown) => {
      release()
      onDefect(defect)
      if (response.destroyed) return
      const answer = gatekeeper.shaped(exchange, internal)
      response.writeHead(answer.status, answer.headers)
      response.end(exchange.method === "HEAD" ? undefined : answer.body)
      served(exchange, answer.status)
    })
  }
  return Object.assign(lane, { running: () => running })
}
