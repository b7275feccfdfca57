/**
 * The pool's replacement of workers that die, with a fixture worker that dies as it is handed the
 * Dataset while a shared flag says so; the delays are taken by the test (no timer runs).
 */
import { assert, describe, it } from "@effect/vitest"
import { buildDataset, type Execution, type SearchQuery } from "@equides/domain"
import { syntheticRecords } from "@equides/domain/testing"
import { shareDataset } from "@equides/ingest/shared"
import { QueryPool, type Scheduler } from "./QueryPool.ts"
import type { Outcome } from "./work.ts"

const RECORDS = syntheticRecords(200, 3)

const suggest = (q: string): Execution => ({ endpoint: "suggest", query: { q, limite: 5 } as SearchQuery })

/** A scheduler that keeps each delayed start for the test to run, and lets it wait for the next. */
const heldStarts = () => {
  const held: Array<{ readonly start: () => void; readonly delayMs: number }> = []
  let wake: (() => void) | undefined
  const schedule: Scheduler = (start, delayMs) => {
    held.push({ start, delayMs })
    wake?.()
    return () => undefined
  }
  const next = async () => {
    while (held.length === 0) await new Promise<void>((resolve) => (wake = resolve))
    return held.shift()!
  }
  return { schedule, next, held }
}

const outcomeOf = (pool: QueryPool, execution: Execution): Promise<Outcome> =>
  new Promise((resolve) => pool.submit(execution, resolve))

describe("QueryPool", () => {
  it("replaces a worker that dies before it is ready after 100, 200, 400, 800 ms, and starts over once one has served", { timeout: 60_000 }, async () => {
    const failing = new Int32Array(new SharedArrayBuffer(4))
    const starts = heldStarts()
    const pool = QueryPool.prepare(1, { url: new URL("./attachFailingQueryWorker.fixture.ts", import.meta.url), data: { failing } }, starts.schedule)
    try {
      await pool.attach(shareDataset(buildDataset(RECORDS)).share)
      assert.strictEqual(pool.restarts, 0)

      // A worker that had served dies: replaced at once. Its replacement dies as it attaches.
      Atomics.store(failing, 0, 1)
      assert.strictEqual((await outcomeOf(pool, suggest("crash"))).kind, "defect")
      assert.strictEqual(pool.restarts, 1)
      const delays: Array<number> = []
      for (let death = 0; death < 3; death++) {
        const { start, delayMs } = await starts.next()
        delays.push(delayMs)
        // Nothing is started until the delay has passed.
        assert.strictEqual(pool.size, 0)
        start()
      }
      assert.deepStrictEqual(delays, [100, 200, 400])
      assert.strictEqual(pool.restarts, 4)

      // The fourth replacement died too; the fifth attaches and serves.
      const { start, delayMs } = await starts.next()
      assert.strictEqual(delayMs, 800)
      Atomics.store(failing, 0, 0)
      start()
      assert.strictEqual((await outcomeOf(pool, suggest(RECORDS[0]!.nom ?? "a"))).kind, "body")
      assert.strictEqual(pool.restarts, 5)

      // A worker was ready since: the delays start over.
      Atomics.store(failing, 0, 1)
      assert.strictEqual((await outcomeOf(pool, suggest("crash"))).kind, "defect")
      assert.strictEqual((await starts.next()).delayMs, 100)
      assert.strictEqual(starts.held.length, 0)
    } finally {
      await pool.close()
    }
  })
})
