/**
 * Issue 24, item 4: consanguinity, matings, the statistics and every explorer page that reads the
 * data run on the query workers. Over HTTP, each of those routes answers with the very bytes it
 * answered when the server's thread made them (`offThread.golden.json`, captured before the move),
 * with `WORKERS=0` and with a pool alike (each execution's run time recorded by family, for the
 * quota's execution costs); and with workers that wait for a permit before every execution, none of
 * those routes has answered when `/healthz` has been answered: none runs on the server's thread.
 */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { readFileSync } from "node:fs"
import { FAMILY } from "../testing/family.ts"
import { call, testServer } from "../testing/server.ts"
import { eventually } from "../testing/time.ts"
import { Telemetry } from "../telemetry.ts"
import { parsePrometheus, sampleValue } from "../testing/prometheus.ts"
import { Executor } from "./Executor.ts"
import { OFF_THREAD_URLS } from "./offThread.routes.ts"

interface Golden {
  readonly status: number
  readonly type: string
  readonly body: string
}

const GOLDEN: Readonly<Record<string, Golden>> = JSON.parse(readFileSync(new URL("./offThread.golden.json", import.meta.url), "utf8"))

const dataset = fromRecords(FAMILY)
const settings = { responseCacheBytes: 0 }

/** Executions by family the requests of `OFF_THREAD_URLS` make (the 400 and 404 pages are rendered too). */
const EXECUTIONS = {
  "consanguinite": 2,
  "accouplement": 2,
  "stats": 1,
  "repartition": 1,
  "explorer/list": 3,
  "explorer/record": 1,
  "explorer/pedigree": 2,
  "explorer/progeny": 2,
  "explorer/stats": 1
}

const matchesGolden = Effect.gen(function*() {
  assert.deepStrictEqual(Object.keys(GOLDEN), OFF_THREAD_URLS)
  for (const url of OFF_THREAD_URLS) {
    const reply = yield* call(url)
    assert.deepStrictEqual({ status: reply.status, type: reply.headers["content-type"], body: reply.text }, GOLDEN[url], url)
  }
  // Each execution's run time is recorded by family (the warm-up's are not).
  const samples = parsePrometheus((yield* Telemetry).render())
  const counted = Object.fromEntries(
    Object.keys(EXECUTIONS).map((family) => [family, sampleValue(samples, "equides_execution_duration_seconds_count", { family })])
  )
  assert.deepStrictEqual(counted, EXECUTIONS)
})

describe("the bytes of the routes moved off the server's thread", () => {
  layer(testServer(dataset, { settings: { ...settings, workers: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("in the server's thread (WORKERS=0): as before the move, each execution timed by family", () => matchesGolden)
  })
  layer(testServer(dataset, { settings, executor: Executor.pool(2) }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("on a pool of query workers: as before the move, each execution timed by family", () => matchesGolden)
  })
})

describe("where they run", () => {
  // Workers that wait for a permit before every execution, none granted until the probe is answered.
  const permits = new Int32Array(new SharedArrayBuffer(4))
  const gated = Executor.pool(3, { url: new URL("./gatedQueryWorker.fixture.ts", import.meta.url), data: { permits } })
  layer(testServer(dataset, { settings: { ...settings, maxConcurrency: 64 }, executor: gated }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("on a worker: none answers before the workers may run, and /healthz is answered meanwhile", () =>
      Effect.gen(function*() {
        const registry = yield* Telemetry
        const read = (name: string) => sampleValue(parsePrometheus(registry.render()), name) ?? 0
        const done: Array<string> = []
        const routes = yield* Effect.forkChild(Effect.all(
          OFF_THREAD_URLS.map((url) => Effect.map(call(url), (reply) => (done.push(url), reply.status))),
          { concurrency: "unbounded" }
        ))
        // Every route has reached the pool: three held by the workers, the rest queued behind them.
        yield* eventually(() => read("equides_query_workers_busy") === 3 && read("equides_query_queue") === OFF_THREAD_URLS.length - 3)
        const probe = yield* call("/healthz")
        const answeredBefore = [...done]
        Atomics.add(permits, 0, OFF_THREAD_URLS.length)
        Atomics.notify(permits, 0)
        const statuses = yield* Fiber.join(routes)
        assert.strictEqual(probe.status, 200)
        assert.deepStrictEqual(answeredBefore, [], "a route answered without a worker")
        assert.deepStrictEqual(statuses, OFF_THREAD_URLS.map((url) => GOLDEN[url].status))
      }))
  })
})
