import { assert, describe, it } from "@effect/vitest"
import { measure } from "./load.ts"
import { recordingServer } from "./recordingServer.testing.ts"

describe("measure", () => {
  it("walking paths sends each exactly once, spread over the connections, and stops after the last", async () => {
    const server = await recordingServer()
    try {
      const paths = Array.from({ length: 777 }, (_, i) => `/item/${i}?q=${i % 7}`)
      const measurement = await measure(server.baseUrl, { connections: 10, duration: 30, paths })
      assert.deepStrictEqual([...server.paths].sort(), [...paths].sort())
      assert.strictEqual(measurement.requests, paths.length)
      assert.strictEqual(measurement.errors, 0)
      assert.isBelow(measurement.p50, measurement.max + 1e-9)
    } finally {
      await server.close()
    }
  })

  it("walking fewer paths than connections uses one connection per path", async () => {
    const server = await recordingServer()
    try {
      const measurement = await measure(server.baseUrl, { connections: 50, duration: 5, paths: ["/a", "/b", "/c"] })
      assert.deepStrictEqual([...server.paths].sort(), ["/a", "/b", "/c"])
      assert.strictEqual(measurement.requests, 3)
    } finally {
      await server.close()
    }
  })

  it("a walk ends at the duration when the paths last longer", async () => {
    const server = await recordingServer((request, response) => setTimeout(() => response.end(request.url), 20))
    try {
      const paths = Array.from({ length: 10_000 }, (_, i) => `/slow/${i}`)
      const started = performance.now()
      const measurement = await measure(server.baseUrl, { connections: 2, duration: 1, paths })
      assert.isBelow(performance.now() - started, 3500)
      assert.isBelow(measurement.requests, paths.length)
      assert.strictEqual(new Set(server.paths).size, server.paths.length)
    } finally {
      await server.close()
    }
  })
})
