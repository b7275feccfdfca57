/**
 * What a failed start says: one line per cause (address in use, host that does not resolve, an
 * invalid setting, a bad data file, the public listener's own failure). The process side (exit 1,
 * no stack trace, the port tried before the load) is in `shutdown.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { SourceError } from "@equides/ingest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { HttpServerError } from "effect/http"
import { createServer } from "node:net"
import { serverConfig } from "../config.ts"
import { checkListenable, failureLine, ListenError } from "./startup.ts"

const LISTENING = { host: "0.0.0.0", port: 8080 }

describe("start-up failures", () => {
  it.effect("an address in use, or a host that does not resolve, fails the check with the line that says so", () =>
    Effect.gen(function*() {
      const taken = createServer()
      yield* Effect.promise(() => new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve)))
      const address = taken.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const inUse = yield* Effect.flip(checkListenable("127.0.0.1", port, "PORT"))
      taken.close()
      assert.instanceOf(inUse, ListenError)
      assert.strictEqual(failureLine(inUse, LISTENING), `le port ${port} est déjà utilisé sur 127.0.0.1 (PORT)`)
      const unresolved = yield* Effect.flip(checkListenable("equides.invalid", 8080, "PORT"))
      assert.match(failureLine(unresolved, LISTENING), /^HOST equides\.invalid ne se résout pas \(E[A-Z_]+\)$/)
      // Port 0 is any free port: nothing to try.
      yield* checkListenable("127.0.0.1", 0, "PORT")
    }))

  it.effect("an invalid setting: the variable, what is expected and what was given", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(serverConfig.parse(ConfigProvider.fromEnvRecord({ MAX_CONCURRENCY: "beaucoup" })))
      assert.strictEqual(failureLine(error, LISTENING), "MAX_CONCURRENCY : entier attendu entre 1 et 100000 (reçu \"beaucoup\")")
    }))

  it("a bad data file: file:line: reason; the public listener's failure: the port", () => {
    const source = new SourceError({ file: "/data/x.jsonl", line: 2, reason: "invalid JSON" })
    assert.strictEqual(failureLine(source, LISTENING), source.message)
    assert.match(source.message, /^\/data\/x\.jsonl:2: invalid JSON/)
    const serve = new HttpServerError.ServeError({ cause: Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" }) })
    assert.strictEqual(failureLine(serve, LISTENING), "le port 8080 est déjà utilisé sur 0.0.0.0 (PORT)")
    assert.strictEqual(failureLine(new Error("first\nsecond"), LISTENING), "first")
  })
})
