/**
 * The rehearsal: what it sends, the world's requests held until its end, and requests that leave
 * no trace (quota, response cache, metrics, log lines), through the front door and through the
 * pipeline alone (debug logging closes the door).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { buildDataset, equivalentGenerationsOf, fromRecords, idOf } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"
import { request, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { isRehearsal, markRehearsal } from "../admission/Gatekeeper.ts"
import { serveMetrics } from "../metrics.ts"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { parsePrometheus } from "../testing/prometheus.ts"
import { call, rawCall, testServer } from "../testing/server.ts"
import { rehearsalTargets } from "./rehearsal.ts"
import { makeNodeServer } from "./server.ts"

const get = (port: number, path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      let body = ""
      response.on("data", (chunk: Buffer) => (body += chunk.toString()))
      response.on("end", () => resolve(body))
    })
    sent.on("error", reject)
    sent.end()
  })

describe("rehearsalTargets", () => {
  it("sends every route's example and every page's warm-up, but the first uses left to the first request", () => {
    const targets = rehearsalTargets(buildDataset(FAMILY))
    for (const path of ["/", "/v1/stats", "/v1/equides", "/explorer/stats", "/explorer/", "/v1/stats/genetique"]) assert.include(targets, path)
    assert.isTrue(targets.some((target) => target.startsWith("/v1/equides/") && target.endsWith("/consanguinite?generations=12")))
    assert.isTrue(targets.some((target) => target.startsWith("/explorer/equides/") && target.endsWith("/pedigree?generations=8")))
    // A breed's genetics (its example), the exports: each costs what no warm-up pays.
    assert.isFalse(targets.some((target) => target.startsWith("/v1/stats/genetique?")))
    assert.isFalse(targets.some((target) => target.startsWith("/v1/export")))
    // The deepest record's pedigree, the largest to write: the record of the most equivalent generations, the first on ties.
    const data = buildDataset(FAMILY)
    const depths = Array.from({ length: data.size }, (_, row) => equivalentGenerationsOf(data.genetics, row))
    const deepest = idOf(data, depths.indexOf(Math.max(...depths)))
    assert.include(targets, `/v1/equides/${deepest}/pedigree?generations=8`)
    assert.include(targets, `/explorer/equides/${deepest}/pedigree?generations=8`)
    assert.strictEqual(new Set(targets).size, targets.length)
    assert.deepStrictEqual(rehearsalTargets(buildDataset([])), [])
  })
})

describe("the public server's rehearsal", () => {
  it("holds the world's requests until it has ended, then serves them in their order; a target no longer than its budget", async () => {
    const seen: Array<string> = []
    const server = makeNodeServer(undefined, {
      plan: { targets: ["/slow", "/quick"], passes: 3 },
      onEnd: (answered) => seen.push(`end ${answered}`)
    })
    server.on("request", (message: IncomingMessage, response) => {
      const answer = (who: string) => {
        seen.push(`${who} ${message.url}`)
        response.end(who)
      }
      // The slow target's first answer takes longer than a target's budget (25 ms): it is sent once.
      if (!isRehearsal(message)) setTimeout(() => answer("world"), 0)
      else if (message.url === "/slow") setTimeout(() => answer("rehearsal"), 40)
      else answer("rehearsal")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    try {
      const answers = await Promise.all([get(port, "/first"), get(port, "/second")])
      assert.deepStrictEqual(answers, ["world", "world"])
      assert.sameMembers(seen.slice(0, 4), ["rehearsal /slow", "rehearsal /quick", "rehearsal /quick", "rehearsal /quick"])
      assert.deepStrictEqual(seen.slice(4), ["end 4", "world /first", "world /second"])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("closes connections of its own before its last requests", async () => {
    // The first connection a process closes costs V8's code for sockets and streams (rehearsal.ts):
    // paid before ready, so requests follow a close.
    const events: Array<string> = []
    let ended!: () => void
    const end = new Promise<void>((resolve) => (ended = resolve))
    const server = makeNodeServer(undefined, {
      plan: { targets: Array.from({ length: 12 }, (_, i) => `/target-${i}`), passes: 2 },
      onEnd: () => ended()
    })
    server.on("connection", (socket) => socket.once("close", () => events.push("close")))
    server.on("request", (message: IncomingMessage, response) => {
      if (isRehearsal(message)) events.push("request")
      response.end("x")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      await end
      assert.strictEqual(events.filter((event) => event === "request").length, 24)
      assert.isAbove(events.indexOf("close"), -1)
      assert.isAbove(events.lastIndexOf("request"), events.indexOf("close"))
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("tells its requests by the message, not by what it looks like", () => {
    // Marked beside the message: a property on the rehearsal's messages alone gave them a hidden
    // class the world's do not have (rehearsal.ts).
    const message = { url: "/" }
    markRehearsal(message)
    assert.isTrue(isRehearsal(message))
    assert.deepStrictEqual(Reflect.ownKeys(message), ["url"])
    assert.isFalse(isRehearsal({ url: "/" }))
  })

  it("serves the held requests when it closes before the rehearsal's end", async () => {
    const server = makeNodeServer(undefined, { plan: { targets: ["/never"], passes: 1 }, onEnd: () => {} })
    server.on("request", (message: IncomingMessage, response) => {
      // The rehearsal's request is never answered: only the close can end the hold.
      if (!isRehearsal(message)) response.end("world")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    const answer = get(port, "/held")
    await new Promise((resolve) => setTimeout(resolve, 50))
    server.close()
    assert.strictEqual(await answer, "world")
    server.closeAllConnections()
  })
})

/** A server that rehearses (3 passes) with a quota of 6 units, its log lines kept in `lines`. */
const rehearsing = (level: LogLevel.LogLevel, lines: Array<string>) =>
  testServer(fromRecords(FAMILY), { settings: { rateLimitRate: 50, rateLimitBurst: 6, rehearsalPasses: 3 } }).pipe(
    Layer.provide(Layer.mergeAll(
      Logger.layer([Logger.make(({ message }) => lines.push(String(message)))]),
      Layer.succeed(References.MinimumLogLevel, level)
    ))
  )

const sum = (text: string, name: string): number =>
  parsePrometheus(text).samples.filter((sample) => sample.name === name).reduce((total, sample) => total + sample.value, 0)

for (const level of ["Info", "Debug"] as const) {
  const lines: Array<string> = []
  layer(rehearsing(level, lines))(`a server that rehearses, LOG_LEVEL=${level}`, (it) => {
    it.effect("has sent its requests, and left no quota spent, nothing cached, no metric and no log line of them", () =>
      Effect.gen(function*() {
        // Held until the rehearsal's end.
        assert.strictEqual((yield* call("/healthz")).status, 200)
        const ended = lines.find((line) => line.startsWith("Répétition"))
        assert.isDefined(ended)
        assert.isAtLeast(Number(/: (\d+) requêtes/.exec(ended!)?.[1]), rehearsalTargets(buildDataset(FAMILY)).length)

        const port = yield* serveMetrics(yield* Telemetry, "127.0.0.1", 0)
        const metrics = (yield* rawCall(`http://127.0.0.1:${port}`, "/metrics")).body.toString("utf8")
        assert.strictEqual(sum(metrics, "equides_http_requests_total"), 1)
        assert.strictEqual(sum(metrics, "equides_execution_duration_seconds_count"), 0)
        assert.strictEqual(sum(metrics, "equides_response_cache_entries"), 0)
        assert.deepStrictEqual(lines.filter((line) => line.includes("Requête")), level === "Debug" ? ["Requête servie"] : [])

        // Three passes of the rehearsal charged to the loopback caller would have spent its 6 units many times over.
        const stats = yield* call("/v1/stats")
        assert.strictEqual(stats.status, 200)
      }))
  })
}
