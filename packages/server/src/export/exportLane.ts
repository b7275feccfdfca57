/**
 * The front door's export lane (issue 30): `GET /v1/export/equides` streamed from the Node
 * server's `request` event, outside the concurrency gate (an export runs for minutes) but within
 * its own limit, `EXPORT_CONCURRENCY` (beyond it: a 503 with `Retry-After`). The query is decoded
 * with the API's own parameters; the selection's rows are computed as an `Execution` on a query
 * worker; the body is written by `streamExport`. What it refuses (a parameter, a value) goes on to
 * the pipeline, whose handler answers the 400 before any byte, as for every route.
 */
import { type DatasetData, type ExportQuery, exportQuery, FILTER_PARAMETERS, ServiceSurcharge } from "@equides/domain"
import { Schema } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { renderProblem } from "../admission/answer.ts"
import { type Exchange, type Gatekeeper, handOver } from "../admission/Gatekeeper.ts"
import { orRefused } from "../execution/directLane.ts"
import type { Registry } from "../telemetry.ts"
import { exportHead, type ExportRows } from "./exportBody.ts"
import { exportBody, streamExport } from "./exportStream.ts"
import { Pacer, type PacingClock, realClock } from "./pacing.ts"

export const EXPORT_ROUTE = "/v1/export/equides"

/** Seconds a caller refused for the export limit is told to wait: an export lasts seconds to minutes. */
export const EXPORT_RETRY_AFTER_SECONDS = 10

const busy = renderProblem(
  new ServiceSurcharge({
    detail: "Trop d'exports sont en cours : réessayer après le délai de Retry-After."
  }),
  { "retry-after": String(EXPORT_RETRY_AFTER_SECONDS) }
)

/** The rows of a decoded query's selection (`undefined`: the query is refused, the pipeline says why). */
export type RowsOf = (query: ExportQuery) => Promise<ExportRows | undefined>

export type ExportLane = (exchange: Exchange, request: IncomingMessage, response: ServerResponse, handOn: () => void) => void

export interface ExportLimits {
  /** Exports streaming now. */
  readonly running: () => number
}

export const makeExportLane = (
  gatekeeper: Gatekeeper,
  data: DatasetData,
  registry: Registry,
  rowsOf: RowsOf,
  concurrency: number,
  rate: number,
  clock: PacingClock = realClock
): ExportLane & ExportLimits => {
  const decode = orRefused(Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(Schema.Struct(exportQuery.fields))))
  let running = 0

  const lane = (exchange: Exchange, request: IncomingMessage, response: ServerResponse, handOn: () => void): void => {
    const query = decode(exchange.url)
    if (query === undefined) {
      handOver(request, exchange)
      handOn()
      return
    }
    if (running >= concurrency) {
      const answer = gatekeeper.shaped(exchange, busy)
      registry.recordUnavailable("export_limit")
      response.writeHead(answer.status, answer.headers)
      response.end(exchange.method === "HEAD" ? undefined : answer.body)
      registry.record(exchange.label, answer.status, (performance.now() - exchange.started) / 1000)
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
    }
    // A client that leaves, at any step: its slot is freed and the stream stops at once.
    response.once("close", release)
    rowsOf(query).then((rows) => {
      if (response.destroyed) return release()
      if (rows === undefined) {
        release()
        handOver(request, exchange)
        handOn()
        return
      }
      const format = query.format ?? "ndjson"
      const head = gatekeeper.shaped(exchange, exportHead(data, format, exchange.wildcard))
      const coding = exchange.negotiated.coding
      response.writeHead(head.status, coding === "identity" || head.status === 304 ? head.headers : { ...head.headers, "content-encoding": coding })
      if (exchange.method === "HEAD" || head.status === 304) {
        response.end()
        registry.record(exchange.label, head.status, (performance.now() - exchange.started) / 1000)
        return release()
      }
      const pacer = new Pacer(gatekeeper.quota, exchange.caller, rate, clock)
      const body = exportBody(data, rows, format, pacer, abort.signal)
      streamExport(body, coding, response).then(
        () => registry.record(exchange.label, 200, (performance.now() - exchange.started) / 1000),
        () => undefined
      ).finally(release)
    }, (defect: unknown) => {
      release()
      if (!response.headersSent) response.destroy(defect instanceof Error ? defect : new Error(String(defect)))
    })
  }
  return Object.assign(lane, { running: () => running })
}

/** A query without any filter: every row, in file order, with nothing to compute. */
export const isUnfilteredExport = (query: ExportQuery): boolean => FILTER_PARAMETERS.every((name) => query[name] === undefined)
