import { assert, describe, it } from "@effect/vitest"
import { setTimeout as sleep } from "node:timers/promises"
import { recordingServer } from "../recordingServer.testing.ts"
import { startLoad } from "./loadedCaller.ts"
import { measuredCaller, startMeasuredCaller } from "./measuredCaller.ts"

describe("measuredCaller", () => {
  it("sends from its own address, one request at a time, and keeps within the quota the server states", async () => {
    // The server's bucket: 20 units, 100 a second, 4 units a request, its headers as the API writes them.
    let tokens = 20
    let at = performance.now()
    let inFlight = 0
    let mostInFlight = 0
    const addresses = new Set<string>()
    const server = await recordingServer((request, response) => {
      addresses.add(request.socket.remoteAddress ?? "")
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      const now = performance.now()
      tokens = Math.min(20, tokens + (100 * (now - at)) / 1000)
      at = now
      const allowed = tokens >= 4
      if (allowed) tokens -= 4
      response.statusCode = allowed ? 200 : 429
      response.setHeader("ratelimit-policy", `"default";q=20;w=1`)
      response.setHeader("ratelimit", `"default";r=${Math.floor(tokens)};t=1`)
      if (!allowed) response.setHeader("retry-after", "1")
      inFlight--
      response.end(request.url)
    })
    try {
      const record = await measuredCaller(server.baseUrl, Array.from({ length: 1000 }, (_, i) => `/v1/equides?nom=${i}`), {
        localAddress: "127.0.0.1",
        rate: 100,
        duration: 0.5
      })
      assert.deepStrictEqual([...addresses], ["127.0.0.1"])
      assert.strictEqual(mostInFlight, 1)
      assert.deepStrictEqual(record.statuses, { "200": record.sent })
      assert.strictEqual(record.latencies.length, record.sent)
      // The burst (5 requests), then one every 40 ms or so: never all the paths.
      assert.isAtLeast(record.sent, 6)
      assert.isBelow(record.sent, 100)
      assert.deepStrictEqual(server.paths, Array.from({ length: record.sent }, (_, i) => `/v1/equides?nom=${i}`))
    } finally {
      await server.close()
    }
  })
})

describe("startMeasuredCaller", () => {
  it("warms, then measures, from a thread of its own, one order after the other", async () => {
    const server = await recordingServer((request, response) => response.end(request.url))
    const caller = startMeasuredCaller()
    try {
      await caller.warm(server.baseUrl, ["/w1", "/w2"], 10)
      const record = await caller.measure(server.baseUrl, ["/a", "/b"], { localAddress: "127.0.0.1", rate: 100, duration: 10 })
      // The warm-up opened by its unrecorded path; no quota stated, so no pacing.
      assert.deepStrictEqual(server.paths, ["/healthz", "/w1", "/w2", "/a", "/b"])
      assert.deepStrictEqual(record.statuses, { "200": 2 })
      assert.strictEqual(record.sent, 2)
      assert.strictEqual(record.latencies.length, 2)
    } finally {
      await caller.close()
      await server.close()
    }
  })
})

describe("startLoad", () => {
  it("sends the paths in turn over its connections from its own address and counts the answers per status", async () => {
    const addresses = new Set<string>()
    let inFlight = 0
    let mostInFlight = 0
    let asked = 0
    const server = await recordingServer((request, response) => {
      addresses.add(request.socket.remoteAddress ?? "")
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      response.statusCode = ++asked % 3 === 0 ? 200 : 429
      setTimeout(() => {
        inFlight--
        response.end()
      }, 5)
    })
    try {
      const load = await startLoad({ baseUrl: server.baseUrl, paths: ["/a", "/b", "/c"], connections: 4, localAddress: "127.0.0.2", honoursRetryAfter: false })
      await sleep(300)
      const summary = await load.stop()
      assert.deepStrictEqual([...addresses], ["127.0.0.2"])
      assert.strictEqual(mostInFlight, 4)
      const answered = Object.values(summary.statuses).reduce((sum, n) => sum + n, 0)
      assert.isAtMost(answered, server.paths.length)
      assert.isAtLeast(summary.statuses["429"] ?? 0, summary.statuses["200"] ?? 0)
      assert.strictEqual(summary.tooManyPerSecond, (summary.statuses["429"] ?? 0) / summary.seconds)
      assert.deepStrictEqual(server.paths.slice(0, 6).sort(), ["/a", "/a", "/b", "/b", "/c", "/c"])
    } finally {
      await server.close()
    }
  })

  it("waits out each refusal's Retry-After on its connection when it honours them", async () => {
    const server = await recordingServer((_request, response) => {
      response.statusCode = 429
      response.setHeader("retry-after", "5")
      response.end()
    })
    try {
      const load = await startLoad({ baseUrl: server.baseUrl, paths: ["/a"], connections: 3, localAddress: "127.0.0.2", honoursRetryAfter: true })
      await sleep(300)
      const summary = await load.stop()
      // One request a connection: each waits 5 s after its refusal, far beyond the 300 ms watched.
      assert.strictEqual(server.paths.length, 3)
      assert.strictEqual(summary.statuses["429"], 3)
    } finally {
      await server.close()
    }
  })
})
