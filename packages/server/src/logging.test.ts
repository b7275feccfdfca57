/**
 * Per-request log lines are at debug level: none at the default `info`, one per request when
 * `LOG_LEVEL=debug` (Effect's minimum log level, which `server.ts` sets from the configuration).
 */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"
import { FAMILY } from "./testing/family.ts"
import { call, testServer } from "./testing/server.ts"

const serverLogging = (level: LogLevel.LogLevel, lines: Array<string>) =>
  testServer(fromRecords(FAMILY)).pipe(
    Layer.provide(Layer.mergeAll(
      Logger.layer([Logger.make(({ logLevel, message }) => lines.push(`${logLevel} ${String(message)}`))]),
      Layer.succeed(References.MinimumLogLevel, level)
    ))
  )

describe("request logs", () => {
  const atInfo: Array<string> = []
  layer(serverLogging("Info", atInfo))("LOG_LEVEL=info", (it) => {
    it.effect("no line per request", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 5; i++) yield* call("/v1/stats")
        assert.deepStrictEqual(atInfo.filter((line) => line.includes("Requête")), [])
      }))
  })

  const atDebug: Array<string> = []
  layer(serverLogging("Debug", atDebug))("LOG_LEVEL=debug", (it) => {
    it.effect("one debug line per request", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 5; i++) yield* call("/v1/stats")
        const lines = atDebug.filter((line) => line.includes("Requête"))
        assert.strictEqual(lines.length, 5)
        assert.isTrue(lines.every((line) => line.startsWith("Debug")))
      }))
  })
})
