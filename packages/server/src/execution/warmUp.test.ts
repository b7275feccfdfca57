/**
 * Issue 24, item 6: every family runs once on each query worker before the pool says ready, so
 * before the Executor exists and `/readyz` can answer 200. Event ordering, not timing: with the
 * warm-up held, the pool does not become ready; opened, it becomes ready with every family run by
 * every worker.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { buildDataset, fromRecords } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import { Effect } from "effect"
import { FAMILY } from "../testing/family.ts"
import { call, testServer } from "../testing/server.ts"
import { Executor } from "./Executor.ts"
import { QueryPool, type WorkerSpec } from "./QueryPool.ts"
import { familyOf, perform, warmUpWork } from "./work.ts"

/** The families whose first use must happen before ready (issue 24, items 4 and 6). */
const FAMILIES = [
  "list",
  "suggest",
  "repartition",
  "stats",
  "consanguinite",
  "accouplement",
  "genetique",
  "descendanceStatistiques",
  "reproducteurs",
  "etalons",
  "explorer/list",
  "explorer/stats",
  "explorer/record",
  "explorer/pedigree",
  "explorer/progeny",
  "explorer/accouplements"
]

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
  it("runs every family through its real path: each warm-up work answers 200", () => {
    const data = buildDataset(FAMILY)
    const work = warmUpWork(data)
    assert.deepStrictEqual([...new Set(work.map(familyOf))], FAMILIES)
    for (const item of work) {
      const outcome = perform(data, item)
      assert.strictEqual(outcome.kind === "body" ? outcome.status : outcome.kind, 200, JSON.stringify(item))
    }
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
