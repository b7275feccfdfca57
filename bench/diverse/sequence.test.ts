import { assert, describe, it } from "@effect/vitest"
import { recordingServer } from "../recordingServer.testing.ts"
import { startProbe } from "./probe.ts"
import { Answers, executedOf, PackedPaths, prepareClient, runSequence, startSequenceThread } from "./sequence.ts"

/** Runs `f` with this thread's `gc` writing each call into `events` (`gc` and its options), then puts it back. */
const spyingOnGc = async <A>(events: Array<string>, f: () => Promise<A>): Promise<A> => {
  const gc = globalThis.gc
  globalThis.gc = ((options?: unknown) => void events.push(options === undefined ? "gc" : `gc ${JSON.stringify(options)}`)) as typeof globalThis.gc
  try {
    return await f()
  } finally {
    globalThis.gc = gc
  }
}

describe("PackedPaths", () => {
  it("gives back each path by its place, whatever its characters, and nothing outside them", () => {
    const paths = ["/v1/search?q=l'océan du p", "", "/v1/equides/4f5szpvNR_C5ca3MueAFLg", "/explorer/equides?race=Trotteur Français"]
    const packed = PackedPaths.of(paths)
    assert.strictEqual(packed.length, 4)
    assert.deepStrictEqual(Array.from({ length: packed.length }, (_, i) => packed.at(i)), paths)
    assert.strictEqual(packed.at(4), undefined)
    assert.strictEqual(packed.at(-1), undefined)
    assert.strictEqual(PackedPaths.of([]).length, 0)
  })
})

describe("Answers", () => {
  it("are kept for a sequence they can hold, and made longer for one they cannot", () => {
    const answers = new Answers(3)
    assert.strictEqual(answers.holding(3), answers)
    assert.strictEqual(answers.holding(0), answers)
    const longer = answers.holding(4)
    assert.notStrictEqual(longer, answers)
    assert.deepStrictEqual([longer.statuses.length, longer.bytes.length, longer.starts.length, longer.times.length], [4, 4, 4, 4])
  })
})

describe("runSequence", () => {
  it("sends the paths in order, one at a time, and reports each answer's status and body size", async () => {
    let inFlight = 0
    let mostInFlight = 0
    const server = await recordingServer((request, response) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      setTimeout(() => {
        inFlight--
        response.statusCode = request.url === "/missing" ? 404 : 200
        response.end("x".repeat(request.url?.length ?? 0))
      }, 2)
    })
    try {
      const paths = ["/a", "/missing", "/ccc"]
      const executed = executedOf(paths, await runSequence(server.baseUrl, paths, 10))
      // The connection opened by one unrecorded probe path first.
      assert.deepStrictEqual(server.paths, ["/healthz", "/a", "/missing", "/ccc"])
      assert.deepStrictEqual(executed.map(({ path, status, bytes }) => [path, status, bytes]), [["/a", 200, 2], ["/missing", 404, 8], ["/ccc", 200, 4]])
      assert.strictEqual(mostInFlight, 1)
      for (const { ms } of executed) assert.isAtLeast(ms, 1)
      for (const { ms, clientGcMs } of executed) assert.isTrue(clientGcMs >= 0 && clientGcMs <= ms)
    } finally {
      await server.close()
    }
  })

  it("counts this thread's collections during a request apart", async () => {
    // While /busy is in flight, this thread (the client's and the server's here) makes garbage
    // enough for several young collections.
    const churn = () => {
      let kept: Array<{ n: number }> = []
      for (let i = 0; i < 2_000_000; i++) kept = i % 1000 === 0 ? [] : [...kept.slice(-8), { n: i }]
    }
    const server = await recordingServer((request, response) => {
      if (request.url === "/busy") setTimeout(churn, 5)
      setTimeout(() => response.end(request.url), request.url === "/busy" ? 60 : 0)
    })
    try {
      const [busy] = executedOf(["/busy"], await runSequence(server.baseUrl, ["/busy"], 10))
      assert.isAbove(busy.clientGcMs, 0)
      assert.isAtMost(busy.clientGcMs, busy.ms)
    } finally {
      await server.close()
    }
  })

  it("empties its thread's young generation alone before the first request (the whole heap is collected before, by prepareClient)", async () => {
    const events: Array<string> = []
    const server = await recordingServer((request, response) => {
      events.push(request.url ?? "")
      response.end()
    })
    try {
      await spyingOnGc(events, () => runSequence(server.baseUrl, ["/a"], 10))
      assert.deepStrictEqual(events, [`gc {"type":"minor"}`, "/healthz", "/a"])
    } finally {
      await server.close()
    }
  })

  it("keeps each answer in the arrays it is given, longer than the sequence, and gives back the sequence's alone", async () => {
    const server = await recordingServer((request, response) => {
      response.statusCode = request.url === "/missing" ? 404 : 200
      response.end("x".repeat(request.url?.length ?? 0))
    })
    try {
      const answers = new Answers(10)
      answers.statuses.fill(-1)
      const timed = await runSequence(server.baseUrl, ["/a", "/missing"], 10, undefined, answers)
      assert.deepStrictEqual(Array.from(timed.statuses), [200, 404])
      assert.deepStrictEqual(Array.from(timed.bytes), [2, 8])
      assert.deepStrictEqual(Array.from(answers.statuses.subarray(0, 3)), [200, 404, -1])
    } finally {
      await server.close()
    }
  })

  it("stops at the duration", async () => {
    const server = await recordingServer((request, response) => setTimeout(() => response.end(request.url), 50))
    try {
      const { ms } = await runSequence(server.baseUrl, Array.from({ length: 100 }, (_, i) => `/${i}`), 0.3)
      assert.isAtMost(ms.length, 8)
      assert.isAtLeast(ms.length, 2)
    } finally {
      await server.close()
    }
  })
})

describe("startSequenceThread", () => {
  it("answers as runSequence does, from its own thread, one sequence after another, and runs the pause here between two requests", async () => {
    const server = await recordingServer((request, response) => {
      response.statusCode = request.url === "/missing" ? 404 : 200
      response.end("x".repeat(request.url?.length ?? 0))
    })
    const sequences = startSequenceThread()
    try {
      let askedAtPause: ReadonlyArray<string> = []
      const executed = await sequences.run(server.baseUrl, PackedPaths.of(["/a", "/missing", "/ccc"]), 10, {
        requests: 2,
        run: async () => {
          askedAtPause = [...server.paths]
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      })
      assert.deepStrictEqual(askedAtPause, ["/healthz", "/a", "/missing"])
      assert.deepStrictEqual(executed.map(({ path, status, bytes }) => [path, status, bytes]), [["/a", 200, 2], ["/missing", 404, 8], ["/ccc", 200, 4]])
      // The pause's 200 ms are no request's.
      for (const { ms } of executed) assert.isBelow(ms, 200)
      const again = await sequences.run(server.baseUrl, PackedPaths.of(["/dd"]), 10)
      assert.deepStrictEqual(again.map(({ path, status, bytes }) => [path, status, bytes]), [["/dd", 200, 3]])
      assert.deepStrictEqual(server.paths, ["/healthz", "/a", "/missing", "/ccc", "/healthz", "/dd"])
    } finally {
      await sequences.close()
      await server.close()
    }
  })
})

describe("prepareClient", () => {
  it("collects the whole heap, then warms the client, then waits before the sequence may start", async () => {
    const events: Array<string> = []
    const started = performance.now()
    await spyingOnGc(events, () => prepareClient(async () => void events.push("warm"), 40))
    events.push("ready")
    assert.deepStrictEqual(events, ["gc", "warm", "ready"])
    assert.isAtLeast(performance.now() - started, 39)
  })
})

describe("startSequenceThread, collecting", () => {
  it("collects the calling thread's heap before the sequence's first request, not during it", async () => {
    const events: Array<string> = []
    const server = await recordingServer((request, response) => {
      events.push(request.url ?? "")
      response.end()
    })
    const sequences = startSequenceThread()
    try {
      await spyingOnGc(events, async () => {
        await sequences.run(server.baseUrl, PackedPaths.of(["/a", "/b"]), 10)
        await sequences.run(server.baseUrl, PackedPaths.of(["/c"]), 10)
      })
      assert.deepStrictEqual(events, ["gc", "/healthz", "/a", "/b", "gc", "/healthz", "/c"])
    } finally {
      await sequences.close()
      await server.close()
    }
  })
})

describe("startSequenceThread, failing", () => {
  it("rejects a sequence whose pause fails (a thread waiting on it would hold the bench)", async () => {
    const server = await recordingServer((request, response) => response.end(request.url))
    const sequences = startSequenceThread()
    try {
      const failing = sequences.run(server.baseUrl, PackedPaths.of(["/a", "/b"]), 10, { requests: 1, run: () => Promise.reject(new Error("no metrics")) })
      await failing.then(() => assert.fail("the sequence settled"), (error: Error) => assert.strictEqual(error.message, "no metrics"))
    } finally {
      await sequences.close()
      await server.close()
    }
  })
})

describe("startProbe", () => {
  it("probes at its pace until stopped, and counts answers other than 200", async () => {
    let asked = 0
    const server = await recordingServer((_request, response) => {
      response.statusCode = ++asked % 4 === 0 ? 503 : 200
      response.end()
    })
    try {
      const probe = await startProbe({ url: `${server.baseUrl}/healthz`, intervalMs: 20 })
      const started = performance.now()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const summary = await probe.stop()
      const elapsed = performance.now() - started
      // One every 20 ms at most, never a busy loop; some at least (the machine may be busy).
      assert.isAtMost(summary.probes, elapsed / 20 + 2)
      assert.isAtLeast(summary.probes, 10)
      // The first probe, unrecorded, opened the connection.
      assert.strictEqual(summary.probes + 1, server.paths.length)
      assert.strictEqual(summary.failures, Math.floor(server.paths.length / 4))
      assert.isAtMost(summary.p50, summary.p99)
      assert.isAtMost(summary.p99, summary.max)
    } finally {
      await server.close()
    }
  })
})
