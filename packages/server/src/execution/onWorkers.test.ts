/**
 * Issue 26 item 1: a route declares on its definition whether it runs on the workers
 * (`onWorkers(family)`). Over HTTP, each route's documented example (and each export) makes one
 * execution of its declared family on the Executor, and a route that declares none makes no
 * execution at all: the annotation says what the handler does, both ways.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Api, buildDataset, endpointsOf, fromRecords, OnWorkers, servedPath } from "@equides/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { examplesOf } from "../examples.ts"
import { Telemetry } from "../telemetry.ts"
import { FAMILY } from "../testing/family.ts"
import { parsePrometheus } from "../testing/prometheus.ts"
import { call, testServer } from "../testing/server.ts"

const EXECUTION_COUNT = "equides_execution_duration_seconds_count"

/** The exports have no documentation example (a file, not JSON): their requests here (a filtered one: all rows need no execution). */
const EXPORTS: ReadonlyArray<readonly [string, string]> = [
  ["/v1/export/equides", "/v1/export/equides?sexe=Femelle&format=csv"],
  ["/v1/export/equides.parquet", "/v1/export/equides.parquet"]
]

const requests = (): ReadonlyArray<readonly [string, string]> => [
  ...examplesOf(buildDataset(FAMILY), () => ({})).requests.map((request) => [request.route, request.url] as const),
  ...EXPORTS
]

/** Executions counted so far, by family. */
const executions = Effect.map(Telemetry, (registry) => {
  const counts = new Map<string, number>()
  for (const sample of parsePrometheus(registry.render()).samples) {
    if (sample.name === EXECUTION_COUNT) counts.set(sample.labels["family"] ?? "", sample.value)
  }
  return counts
})

describe("a route runs on the workers exactly when its definition says so", () => {
  layer(testServer(fromRecords(FAMILY), { settings: { workers: 0, responseCacheBytes: 0 } }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("every route's request executes its declared family on the Executor, and no other route's executes anything", () =>
      Effect.gen(function*() {
        const declared = new Map(endpointsOf(Api).map((endpoint) => [servedPath(endpoint.path), Context.get(endpoint.annotations, OnWorkers)]))
        const asked = requests()
        assert.deepStrictEqual(new Set(asked.map(([route]) => route)), new Set(declared.keys()), "every route asked once")
        const seen: Array<string> = []
        for (const [route, url] of asked) {
          const before = yield* executions
          const reply = yield* call(url)
          assert.strictEqual(reply.status, 200, url)
          const after = yield* executions
          const ran = [...after].filter(([family, count]) => count > (before.get(family) ?? 0)).map(([family]) => family)
          const family = declared.get(route)
          assert.deepStrictEqual(ran, family === undefined ? [] : [family], `${url} (${route})`)
          if (family !== undefined) seen.push(route)
        }
        // The annotation is there to be read: routes of both kinds were checked.
        assert.isAbove(seen.length, 0)
        assert.isBelow(seen.length, asked.length)
      }))
  })
})
