/**
 * The pool's replacement of workers that die, with a fixture worker that dies as it is handed the
 * Dataset while a shared flag says so; the delays are taken by the test (no timer runs). Its fair
 * queue and heavy lane, on workers whose every execution waits for a permit the test grants
 * (`gatedQueryWorker.fixture.ts`): what starts and in which order is decided before any permit.
 */
import { assert, describe, it } from "@effect/vitest"
import { buildDataset, type Execution, type SearchQuery } from "@equides/domain"
import { syntheticRecords } from "@equides/domain/testing"
import { shareDataset } from "@equides/ingest/shared"
import { QueryPool, type Scheduler } from "./QueryPool.ts"
import type { Requester } from "./requester.ts"
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

/** A scheduler that holds each delayed start until the test fires it; a cancelled one is dropped. */
const heldTimers = () => {
  const held = new Set<() => void>()
  const schedule: Scheduler = (start) => {
    const entry = () => {
      held.delete(entry)
      start()
    }
    held.add(entry)
    return () => void held.delete(entry)
  }
  return { schedule, fire: () => [...held].forEach((entry) => entry()), live: () => held.size }
}

/** Resolves once `condition` holds (polled), fails after 20 s. */
const eventually = async (condition: () => boolean) => {
  const deadline = Date.now() + 20_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held")
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const grantIn = (cells: Int32Array, at: number, count: number) => {
  Atomics.add(cells, at, count)
  Atomics.notify(cells, at)
}

/** A pool of `size` gated workers over `RECORDS`, attached, and how to grant its executions permits. */
const gatedPool = async (size: number) => {
  const permits = new Int32Array(new SharedArrayBuffer(4))
  const pool = QueryPool.prepare(size, { url: new URL("./gatedQueryWorker.fixture.ts", import.meta.url), data: { permits } })
  await pool.attach(shareDataset(buildDataset(RECORDS)).share)
  const grant = (count: number) => {
    Atomics.add(permits, 0, count)
    Atomics.notify(permits, 0)
  }
  return { pool, grant }
}

/** Submits executions named `name` and records the names in the order they are answered. */
const recorder = (pool: QueryPool) => {
  const answered: Array<string> = []
  const waiters: Array<() => void> = []
  const submit = (name: string, requester: Requester) =>
    pool.submit(suggest(name), (outcome) => {
      answered.push(outcome.kind === "body" ? name : `${name}: ${outcome.kind}`)
      for (const wake of waiters.splice(0)) wake()
    }, requester)
  /** Resolves once `count` executions have been answered. */
  const until = async (count: number) => {
    while (answered.length < count) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  return { answered, submit, until }
}

const light = (caller: string): Requester => ({ caller, heavy: false, rehearsal: false })
const heavy = (caller: string): Requester => ({ caller, heavy: true, rehearsal: false })

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

  it("hands a freed worker to the callers in turn, one that had nothing waiting first, each caller's executions in order", { timeout: 60_000 }, async () => {
    const { pool, grant } = await gatedPool(1)
    try {
      const { answered, submit, until } = recorder(pool)
      submit("x", light("a"))
      for (const name of ["a1", "a2", "a3"]) submit(name, light("a"))
      submit("b1", light("b"))
      submit("b2", light("b"))
      const b3 = submit("b3", light("b"))
      // With one worker, heavy work has no lane to keep: it takes its turn like the rest.
      submit("c1", heavy("c"))
      assert.strictEqual(pool.queued, 7)
      pool.cancel(b3)
      assert.strictEqual(pool.queued, 6)
      grant(7)
      await until(7)
      assert.deepStrictEqual(answered, ["x", "a1", "b1", "c1", "a2", "b2", "a3"])
      assert.strictEqual(pool.queued, 0)
    } finally {
      await pool.close()
    }
  })

  it("keeps a worker from heavy work while light work may come, and starts light work on it at once", { timeout: 60_000 }, async () => {
    const { pool, grant } = await gatedPool(2)
    try {
      const { answered, submit, until } = recorder(pool)
      submit("h1", heavy("a"))
      submit("h2", heavy("a"))
      const h3 = submit("h3", heavy("b"))
      // One heavy execution runs; the others wait though a worker is free.
      assert.strictEqual(pool.busy, 1)
      assert.strictEqual(pool.heavyBusy, 1)
      assert.strictEqual(pool.queued, 2)
      // Light work arriving after them starts on the free worker.
      submit("l1", light("c"))
      assert.strictEqual(pool.busy, 2)
      assert.strictEqual(pool.queued, 2)
      submit("l2", light("c"))
      const l3 = submit("l3", light("d"))
      assert.strictEqual(pool.queued, 4)
      // Withdrawn while waiting, light or heavy: never run, never answered.
      pool.cancel(l3)
      pool.cancel(h3)
      assert.strictEqual(pool.queued, 2)
      // Whichever of h1 and l1 ends, its worker takes the next execution its lane allows: one heavy still runs.
      grant(1)
      await until(1)
      assert.strictEqual(pool.busy, 2)
      assert.strictEqual(pool.heavyBusy, 1)
      assert.strictEqual(pool.queued, 1)
      grant(3)
      await until(4)
      assert.sameMembers(answered, ["h1", "h2", "l1", "l2"])
      assert.strictEqual(pool.busy, 0)
      assert.strictEqual(pool.queued, 0)
    } finally {
      grant(1000)
      await pool.close()
    }
  })

  it("asks a worker idle for a while for a full collection, one worker at a time, and gives work to the other meanwhile", { timeout: 60_000 }, async () => {
    const permits = new Int32Array(new SharedArrayBuffer(4))
    // [collections asked for, permits to end one]
    const collections = new Int32Array(new SharedArrayBuffer(8))
    const timers = heldTimers()
    const pool = QueryPool.prepare(2, { url: new URL("./gatedQueryWorker.fixture.ts", import.meta.url), data: { permits, collections } }, heldStarts().schedule, timers.schedule)
    try {
      await pool.attach(shareDataset(buildDataset(RECORDS)).share)
      // Ready: nothing to collect yet (the warm-up collected before it said so).
      assert.strictEqual(timers.live(), 0)
      const { submit, until } = recorder(pool)
      submit("a", light("x"))
      submit("b", light("x"))
      assert.strictEqual(pool.busy, 2)
      grantIn(permits, 0, 2)
      await until(2)
      // Each worker's collection is set for when it has been idle IDLE_COLLECTION_MS.
      assert.strictEqual(timers.live(), 2)
      timers.fire()
      await eventually(() => Atomics.load(collections, 0) === 1)
      // The other one's waits for the first to end.
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.strictEqual(Atomics.load(collections, 0), 1)
      // Meanwhile (the collecting thread is blocked) executions go to the other worker, one after the other.
      submit("c", light("x"))
      assert.strictEqual(pool.busy, 1)
      grantIn(permits, 0, 1)
      await until(3)
      submit("d", light("x"))
      grantIn(permits, 0, 1)
      await until(4)
      // The first collection ends: that worker takes work again. The other ran since, so is no longer due one.
      grantIn(collections, 1, 1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      submit("e", light("x"))
      submit("f", light("x"))
      await eventually(() => pool.busy === 2 && pool.queued === 0)
      grantIn(permits, 0, 2)
      await until(6)
      assert.strictEqual(Atomics.load(collections, 0), 1)
      // Both idle long enough again: one collection, then the other once it has ended.
      assert.strictEqual(timers.live(), 2)
      timers.fire()
      await eventually(() => Atomics.load(collections, 0) === 2)
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.strictEqual(Atomics.load(collections, 0), 2)
      grantIn(collections, 1, 1)
      await eventually(() => Atomics.load(collections, 0) === 3)
      // Its end gives that worker back: both take work again, and are idle when the pool closes.
      grantIn(collections, 1, 1)
      submit("g", light("x"))
      submit("h", light("x"))
      await eventually(() => pool.busy === 2 && pool.queued === 0)
      grantIn(permits, 0, 2)
      await until(8)
    } finally {
      grantIn(collections, 1, 1000)
      grantIn(permits, 0, 1000)
      await pool.close()
    }
  })

  it("collects after an answer only when the worker's policy says one is due", { timeout: 60_000 }, async () => {
    // [permits, collections held, quick collections ended]
    const cells = new Int32Array(new SharedArrayBuffer(12))
    const pool = QueryPool.prepare(1, { url: new URL("./collectingQueryWorker.fixture.ts", import.meta.url), data: { cells, slow: "jamais", dueEvery: 3 } }, heldStarts().schedule, heldTimers().schedule)
    try {
      await pool.attach(shareDataset(buildDataset(RECORDS)).share)
      for (const q of ["a", "b", "c", "d", "e", "f", "g"]) await outcomeOf(pool, suggest(q))
      await eventually(() => Atomics.load(cells, 2) === 2)
      await new Promise((resolve) => setTimeout(resolve, 50))
      assert.strictEqual(Atomics.load(cells, 2), 2)
    } finally {
      await pool.close()
    }
  })

  it("gives an execution to a free worker rather than to the one idle longest while that one still collects after its answer", { timeout: 60_000 }, async () => {
    // [permits to end a held collection, collections held so far, quick collections ended]
    const cells = new Int32Array(new SharedArrayBuffer(12))
    const slow = "collecte lente"
    const pool = QueryPool.prepare(2, { url: new URL("./collectingQueryWorker.fixture.ts", import.meta.url), data: { cells, slow } }, heldStarts().schedule, heldTimers().schedule)
    const answeredWithin = (execution: Execution, ms: number) =>
      Promise.race([outcomeOf(pool, execution).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))])
    // A worker's quick collection after an answer has ended (the worker clears its cell right after).
    const collected = async (quick: number) => {
      await eventually(() => Atomics.load(cells, 2) === quick)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    try {
      await pool.attach(shareDataset(buildDataset(RECORDS)).share)
      // One worker answers, then holds its thread in its collection.
      await outcomeOf(pool, suggest(slow))
      await eventually(() => Atomics.load(cells, 1) === 1)
      // The other answers and collects at once: now idle after the first.
      await outcomeOf(pool, suggest("a"))
      await collected(1)
      // The first is the one idle longest, still collecting: the other one answers, again and again.
      assert.isTrue(await answeredWithin(suggest("b"), 5_000))
      await collected(2)
      assert.isTrue(await answeredWithin(suggest("c"), 5_000))
      await collected(3)
      // Both collecting: the next waits for the one idle longest, and is answered once its collection ends.
      await outcomeOf(pool, suggest(slow))
      await eventually(() => Atomics.load(cells, 1) === 2)
      const waiting = outcomeOf(pool, suggest("d"))
      grantIn(cells, 0, 2)
      assert.strictEqual((await waiting).kind, "body")
      assert.strictEqual(pool.busy, 0)
    } finally {
      grantIn(cells, 0, 1000)
      await pool.close()
    }
  })
})
