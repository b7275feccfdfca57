/** A defect outside any fiber is logged with the server's loggers, as the pipeline logs one. */
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { reportDefectWith } from "./defects.ts"

describe("reportDefectWith", () => {
  it.effect("logs an error line 'Erreur interne' carrying the thrown value as its cause, with the given loggers", () =>
    Effect.gen(function*() {
      const lines: Array<{ level: string; message: unknown; defects: ReadonlyArray<unknown> }> = []
      const logger = Logger.make(({ cause, logLevel, message }) =>
        lines.push({ level: logLevel, message, defects: cause.reasons.filter(Cause.isDieReason).map((reason) => reason.defect) })
      )
      const report = yield* Effect.map(Effect.context<never>(), reportDefectWith).pipe(Effect.provide(Logger.layer([logger])))
      const defect = new Error("writer bug")
      report(defect)
      assert.deepStrictEqual(lines, [{ level: "Error", message: ["Erreur interne"], defects: [defect] }])
    }))
})
