/**
 * One answer path (issue 11): the front door writes what admission answers without executing
 * anything, the pipeline writes everything else, and each writes admission's answers itself when
 * the front door did not run. Whichever path a request takes, the bytes on the wire must be the
 * same: two servers over the same data, one with its front door and one without, get the same
 * requests, and every answer (status line, headers but `Date`, body) is compared byte for byte.
 */
import { assert, describe, it } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HttpServer } from "effect/http"
import { EVERY_ROUTE, FAMILY, SIRE } from "./testing/family.ts"
import { rawSocket, testServer, TRUSTED_LOOPBACK } from "./testing/server.ts"

const SETTINGS = { rateLimitRate: 1, rateLimitBurst: 60, trustedProxies: TRUSTED_LOOPBACK, responseCacheBytes: 8 * 1024 * 1024 }

/** A request as raw text, from the caller `caller` (through the trusted loopback proxy). */
const message = (method: string, target: string, caller: string, headers: Record<string, string> = {}): string =>
  `${method} ${target} HTTP/1.1\r\nHost: equides.test\r\nConnection: close\r\nX-Forwarded-For: ${caller}\r\n` +
  Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") + "\r\n"

/** The answer as received, without the `Date` line (the one header allowed to differ). */
const withoutDate = (text: string): string => text.replace(/\r\nDate: [^\r]*/i, "")

const etagOf = (text: string): string => /\r\netag: ("[^"]*")/i.exec(text)?.[1] ?? "\"none\""

/** The same conversation with one server: every route in every variant, refusals, an exhausted quota. */
const converse = (base: string) =>
  Effect.gen(function*() {
    const answers: Array<readonly [request: string, answer: string]> = []
    const send = (text: string) =>
      Effect.map(rawSocket(base, text), (answer) => {
        answers.push([text.split("\r\n")[0]!, withoutDate(answer)])
        return answer
      })
    let n = 0
    for (const route of EVERY_ROUTE) {
      const caller = `198.51.100.${++n}`
      const plain = yield* send(message("GET", route, caller))
      yield* send(message("GET", route, caller)) // executed again, and kept from now on
      yield* send(message("GET", route, caller)) // kept (or executed again: probes)
      yield* send(message("GET", route, caller, { "If-None-Match": etagOf(plain) }))
      for (const coding of ["gzip", "br"]) {
        const compressed = yield* send(message("GET", route, caller, { "Accept-Encoding": coding }))
        yield* send(message("GET", route, caller, { "Accept-Encoding": coding }))
        yield* send(message("GET", route, caller, { "Accept-Encoding": coding }))
        yield* send(message("GET", route, caller, { "Accept-Encoding": coding, "If-None-Match": etagOf(compressed) }))
      }
      yield* send(message("HEAD", route, caller))
      yield* send(message("HEAD", route, caller, { "Accept-Encoding": "gzip" }))
    }
    const refused = "192.0.2.1"
    yield* send(message("GET", "/", refused, { Accept: "text/html" }))
    yield* send(message("GET", "/", refused, { Accept: "text/html" }))
    yield* send(message("OPTIONS", "/v1/stats", refused, { "Access-Control-Request-Headers": "if-none-match" }))
    yield* send(message("GET", "/v1/stats/", refused))
    yield* send(message("GET", "/v1//stats", refused))
    yield* send(message("GET", "/v1/equides/%ZZ", refused))
    yield* send(message("GET", `/v1/equides?${Array.from({ length: 65 }, (_, i) => `p${i}=1`).join("&")}`, refused))
    yield* send(message("GET", "/v1/nulle-part", refused))
    yield* send(message("DELETE", "/v1/stats", refused))
    yield* send(message("GET", "/v1/equides?sexe=Licorne", refused))
    // What the front door's direct lane must leave to the pipeline: unknown parameters, other methods.
    yield* send(message("GET", "/v1/equides?inconnu=1", refused))
    yield* send(message("GET", `/v1/equides/${SIRE}?vue=complet`, refused))
    yield* send(message("GET", `/v1/equides/${SIRE}/pedigree?generations=9`, refused))
    yield* send(message("POST", `/v1/equides/${SIRE}`, refused))
    // An exhausted quota: the same 429s on both servers, for a request and for a revalidation.
    const spender = "203.0.113.1"
    for (let i = 0; i < 80; i++) {
      const answer = yield* send(message("GET", "/v1/equides?vue=complet&limite=500", spender))
      if (answer.startsWith("HTTP/1.1 429")) break
    }
    yield* send(message("GET", "/v1/stats", spender, { "If-None-Match": "\"x\"" }))
    return answers
  })

const baseOf = (context: Context.Context<HttpServer.HttpServer>): string => {
  const address = Context.get(context, HttpServer.HttpServer).address
  return address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${address.port}`
}

describe("one answer path", () => {
  it.effect("the front door and the pipeline answer every route and variant with the same bytes", () =>
    Effect.scoped(Effect.gen(function*() {
      const open = yield* Layer.build(testServer(fromRecords(FAMILY), { settings: SETTINGS }))
      const closed = yield* Layer.build(testServer(fromRecords(FAMILY), { settings: SETTINGS, frontDoor: false }))
      const throughFrontDoor = yield* converse(baseOf(open))
      const throughPipeline = yield* converse(baseOf(closed))
      assert.strictEqual(throughFrontDoor.length, throughPipeline.length)
      for (let i = 0; i < throughFrontDoor.length; i++) {
        const [request, answer] = throughFrontDoor[i]!
        assert.strictEqual(throughPipeline[i]![1], answer, request)
      }
      const statuses = new Set(throughFrontDoor.map(([, answer]) => answer.slice(9, 12)))
      // The conversation reaches every kind of answer: executed, kept, revalidated, refused.
      for (const status of ["200", "204", "304", "400", "404", "405", "429"]) assert.isTrue(statuses.has(status), status)
    })))
})
