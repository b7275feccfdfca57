/**
 * Handlers of the `export` group. The front door streams exports itself (`export/exportLane.ts`:
 * its concurrency limit, compression, back-pressure), under debug logging too; a request it leaves
 * here is one it refused (answered 400 by the API's decoding or the selection's refusal, before
 * any byte) or one no front door saw (a server built without one: tests, another platform): that
 * one is streamed by the platform, paced and compressed the same way (the Parquet file whole,
 * unpaced, without `Range`).
 */
import { Api, Dataset, PARQUET_TYPE } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { negotiateUncached } from "../admission/coding.ts"
import { Admission, admittedAt } from "../admission/Gatekeeper.ts"
import { Settings } from "../config.ts"
import { exportHead, exportRows } from "../export/exportBody.ts"
import { compressedBody, exportBody } from "../export/exportStream.ts"
import { Pacer, realClock } from "../export/pacing.ts"
import { parquetFileName, parquetPath } from "../export/parquet.ts"
import { makeParquetOf } from "../export/parquetFile.ts"
import { parquetWriter } from "../export/parquetThread.ts"
import { Telemetry } from "../telemetry.ts"
import { createReadStream } from "node:fs"
import { fromInvalidParameter } from "../problems.ts"

export const ExportHandlers = HttpApiBuilder.group(
  Api,
  "export",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const gatekeeper = yield* Admission
    const { exportDir, rateLimitRate } = yield* Settings
    const parquetOf = makeParquetOf(parquetPath(data, exportDir), parquetFileName(data), parquetWriter(data, yield* Telemetry))
    return handlers.handle("equides", ({ query, request }) =>
      Effect.map(Effect.mapError(Effect.fromResult(exportRows(data, query)), fromInvalidParameter), (rows) => {
        const format = query.format ?? "ndjson"
        const head = exportHead(data, format, false)
        const caller = admittedAt(request.source)?.caller ?? ""
        const pacer = new Pacer(gatekeeper.quota, caller, rateLimitRate, realClock)
        const body = exportBody(data, rows, format, pacer, new AbortController().signal)
        const { coding } = negotiateUncached(request.headers["accept-encoding"])
        const [sent, headers] = coding === "identity"
          ? [body, head.headers]
          : [compressedBody(body, coding), { ...head.headers, "content-encoding": coding }]
        return HttpServerResponse.stream(Stream.fromAsyncIterable(sent, (error) => error), { headers })
      })).handle("equidesParquet", () =>
      Effect.map(Effect.promise(parquetOf), (file) =>
        HttpServerResponse.stream(Stream.fromAsyncIterable(createReadStream(file.path), (error) => error), {
          headers: { "content-type": PARQUET_TYPE, "content-length": String(file.size), "content-disposition": `attachment; filename="${file.name}"` }
        })))
  })
)
