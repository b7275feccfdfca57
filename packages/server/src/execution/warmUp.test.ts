/**
 * Issue 24, item 6: every route on the workers and every explorer page rendered there (but those
 * whose definitions say why not) runs once on each query worker before the pool says ready, so
 * before the Executor exists and `/readyz` can answer 200. Event ordering, not timing: with the
 * warm-up held, the pool does not become ready; opened, it becomes ready with every family run by
 * every worker.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Api, buildDataset, endpointsOf, fromRecords, idOf, NotWarmed, OnWorkers, servedPath, unheldBreedRow } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { PAGE_WARM_UPS } from "../explorer/pageWarmUp.ts"
import { EXPLORER_EXECUTION_MS } from "../pageRoutes.ts"
import { FAMILY } from "../testing/family.ts"
import { call, testServer } from "../testing/server.ts"
import { Executor } from "./Executor.ts"
import { QueryPool, type WorkerSpec } from "./QueryPool.ts"
import { familyOf, isPage, perform, WARM_UP_PASSES, warmUp, warmUpWork } from "./work.ts"

/** The routes on the workers whose definitions say why they are not warmed (literal: the spec's paths). */
const NOT_WARMED = ["/v1/export/equides.parquet"]

/**
 * The families whose first use must happen before ready (issue 24, items 4 and 6), from the
 * definitions: every route on the workers but those that say why not, and every explorer page
 * rendered on the workers but those whose warm-up says why not.
 */
const FAMILIES = [
  ...new Set(endpointsOf(Api).flatMap((endpoint) => {
    const family = Context.get(endpoint.annotations, OnWorkers)
    return family === undefined || Context.get(endpoint.annotations, NotWarmed) !== undefined ? [] : [family]
  })),
  ...Object.entries(PAGE_WARM_UPS).flatMap(([kind, warmUp]) => typeof warmUp === "function" ? [`explorer/${kind}`] : [])
]

/** A page template as a pattern of the paths it serves. */
const templatePattern = (template: string): RegExp => new RegExp(`^${template.replace(/:[a-z]+/g, "[^/?]+")}(\\?|$)`)

const counting = (open: boolean) => {
  const counts = new SharedArrayBuffer(4 * (FAMILIES.length + 1))
  const go = new SharedArrayBuffer(4)
  if (open) new Int32Array(go)[0] = 1
  const spec: WorkerSpec = { url: new URL("./countingQueryWorker.fixture.ts", import.meta.url), data: { counts, go, families: FAMILIES } }
  const tally = () => Object.fromEntries(FAMILIES.map((family, i) => [family, Atomics.load(new Int32Array(counts), i)]))
  const release = () => {
    Atomics.store(new Int32Array(go), 0, 1)
    Atomics.notify(new Int32Array(go), 0)
  }
  return { spec, tally, release }
}

const WORKERS = 2
/** Every family run by `n` workers. */
const everyFamily = (n: number) => Object.fromEntries(FAMILIES.map((family) => [family, n]))

describe("warm-up before ready", () => {
  it("every route on the workers is warmed unless its definition says why not", () => {
    const notWarmed = endpointsOf(Api).flatMap((endpoint) => {
      const why = Context.get(endpoint.annotations, NotWarmed)
      if (why !== undefined) assert.isDefined(Context.get(endpoint.annotations, OnWorkers), `${endpoint.path}: notWarmed on a route off the workers`)
      return why === undefined ? [] : [servedPath(endpoint.path)]
    })
    assert.deepStrictEqual(notWarmed, NOT_WARMED)
    // The progeny statistics, the ranking of parents and the stallions for a mare among them (issue 24 item 6).
    for (const family of ["descendanceStatistiques", "reproducteurs", "etalons", "genetique/equide", "genetique/stats", "list", "consanguinite"]) assert.include(FAMILIES, family)
  })

  it("every explorer page rendered on the workers is warmed but the breed's genetics", () => {
    const pages = warmUpWork(buildDataset(FAMILY)).filter(isPage)
    const warmed = Object.keys(EXPLORER_EXECUTION_MS).filter((template) => pages.some((page) => templatePattern(template).test(page.url)))
    assert.deepStrictEqual(new Set(Object.keys(EXPLORER_EXECUTION_MS)), new Set([...warmed, "/explorer/genetique"]))
    assert.notInclude(warmed, "/explorer/genetique")
  })

  it("renders the record page of a breed whose reference a thread makes on first use, besides the subject's", () => {
    const data = buildDataset(FAMILY)
    const other = unheldBreedRow(data)
    assert.isDefined(other)
    const records = warmUpWork(data).filter(isPage).filter((page) => page.page === "record").map((page) => page.url)
    assert.strictEqual(records.length, 2)
    assert.include(records, `/explorer/equides/${idOf(data, other ?? 0)}`)
  })

  it("runs every family through its real path: each warm-up work answers 200", () => {
    const data = buildDataset(FAMILY)
    const work = warmUpWork(data)
    assert.deepStrictEqual(new Set(work.map(familyOf)), new Set(FAMILIES))
    for (const item of work) {
      const outcome = perform(data, item)
      assert.strictEqual(outcome.kind === "body" ? outcome.status : outcome.kind, 200, JSON.stringify(item))
    }
  })

  it("runs every warm-up work in several passes, so that V8 has optimised each path for all of them before the first request", () => {
    const data = buildDataset(FAMILY)
    const expected = new Map<string, number>()
    for (const work of warmUpWork(data)) expected.set(JSON.stringify(work), (expected.get(JSON.stringify(work)) ?? 0) + WARM_UP_PASSES)
    const ran = new Map<string, number>()
    warmUp(data, (attached, work) => {
      ran.set(JSON.stringify(work), (ran.get(JSON.stringify(work)) ?? 0) + 1)
      return perform(attached, work)
    })
    assert.isAbove(WARM_UP_PASSES, 1)
    assert.deepStrictEqual(ran, expected)
  })

  it("the pool is not ready while the warm-up is held; once it runs, every worker has run every family", async () => {
    const { spec, tally, release } = counting(false)
    const pool = QueryPool.prepare(WORKERS, spec)
    try {
      let ready = false
      const attached = pool.attach(shareDataset(buildDataset(FAMILY)).share).then(() => (ready = true))
      await new Promise((resolve) => setTimeout(resolve, 1500))
      assert.isFalse(ready, "ready while the warm-up was held")
      assert.deepStrictEqual(tally(), everyFamily(0), "held before its first work")
      release()
      await attached
      assert.deepStrictEqual(tally(), everyFamily(WORKERS))
    } finally {
      await pool.close()
    }
  }, 30_000)

  const { spec, tally } = counting(true)
  layer(testServer(fromRecords(FAMILY), { executor: Executor.pool(WORKERS, spec) }), { timeout: 30_000, excludeTestServices: true })((it) => {
    it.effect("when /readyz first answers 200, every worker has run every family", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* call("/readyz")).status, 200)
        assert.deepStrictEqual(tally(), everyFamily(WORKERS))
      }))
  })
})
