/**
 * Turns, with a clock and a scheduler in the test's hands: each task advances the clock by its
 * cost, and a drain runs only when the test runs the one scheduled (as `setImmediate` would,
 * after the turn's I/O).
 */
import { assert, describe, it } from "@effect/vitest"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { makeTurns } from "./turns.ts"

/** A full collection, whether or not the test process was started with --expose-gc. */
const collectGarbage = (): void => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

const harness = (budgetMs: number) => {
  let clock = 0
  const drains: Array<() => void> = []
  const ran: Array<string> = []
  const thrown: Array<string> = []
  const turns = makeTurns(budgetMs, (drain) => drains.push(drain), () => clock, (defect) => thrown.push((defect as Error).message))
  const task = (name: string, costMs: number) => () => {
    clock += costMs
    ran.push(name)
  }
  /** Runs the drain scheduled, if any: one later turn. */
  const nextTurn = (): boolean => {
    const drain = drains.shift()
    drain?.()
    return drain !== undefined
  }
  return { turns, task, ran, nextTurn, drains, thrown }
}

describe("turns", () => {
  it("runs tasks at once while the turn's budget lasts, and schedules nothing", () => {
    const { turns, task, ran, drains } = harness(1)
    turns.run(task("a", 0.2))
    turns.run(task("b", 0.3))
    assert.deepStrictEqual(ran, ["a", "b"])
    assert.strictEqual(drains.length, 0)
    assert.strictEqual(turns.waiting(), 0)
  })

  it("queues what comes once the budget is spent, and drains it a budget per turn, in order", () => {
    const { turns, task, ran, nextTurn } = harness(1)
    for (const name of ["a", "b", "c", "d", "e", "f", "g"]) turns.run(task(name, 0.4))
    // a, b, c spend 1.2 ms: the crossing task finishes, the rest wait.
    assert.deepStrictEqual(ran, ["a", "b", "c"])
    assert.strictEqual(turns.waiting(), 4)
    assert.isTrue(nextTurn())
    assert.deepStrictEqual(ran, ["a", "b", "c", "d", "e", "f"])
    // A task arriving while others wait goes behind them, even with budget left.
    turns.run(task("h", 0.1))
    assert.deepStrictEqual(ran, ["a", "b", "c", "d", "e", "f"])
    assert.isTrue(nextTurn())
    assert.deepStrictEqual(ran, ["a", "b", "c", "d", "e", "f", "g", "h"])
    assert.strictEqual(turns.waiting(), 0)
  })

  it("gives the budget back on the next turn once spent, even with nothing waiting", () => {
    const { turns, task, ran, nextTurn } = harness(1)
    turns.run(task("a", 1.5))
    turns.run(task("b", 0.1))
    assert.deepStrictEqual(ran, ["a"])
    assert.isTrue(nextTurn())
    assert.deepStrictEqual(ran, ["a", "b"])
    // b spent 0.1 ms of the new budget: the next task runs at once.
    turns.run(task("c", 0.1))
    assert.deepStrictEqual(ran, ["a", "b", "c"])
  })

  it("reports a task's throw instead of throwing it, at once or from a drain, and runs the others in the same turn", () => {
    const { turns, task, ran, nextTurn, thrown } = harness(1)
    turns.run(() => {
      throw new Error("at once")
    })
    turns.run(task("a", 2))
    turns.run(() => {
      throw new Error("drained")
    })
    turns.run(task("b", 0.1))
    assert.deepStrictEqual(thrown, ["at once"])
    assert.deepStrictEqual(ran, ["a"])
    // Where the throw would have reached `setImmediate`, and Node's `uncaughtException`.
    assert.doesNotThrow(() => nextTurn())
    assert.deepStrictEqual(thrown, ["at once", "drained"])
    assert.deepStrictEqual(ran, ["a", "b"])
    assert.strictEqual(turns.waiting(), 0)
  })

  it("keeps nothing of a task once it has run, and keeps the order, though the queue never empties", async () => {
    let clock = 0
    const drains: Array<() => void> = []
    const own = makeTurns(1, (drain) => drains.push(drain), () => clock)
    const payloads: Array<WeakRef<object>> = []
    const order: Array<number> = []
    const enqueue = () => {
      const payload = { bytes: new Uint8Array(1024) }
      const index = payloads.length
      payloads.push(new WeakRef(payload))
      own.run(() => {
        clock += 0.4
        payload.bytes[0] = 1
        order.push(index)
      })
    }
    for (let i = 0; i < 3000; i++) enqueue()
    // Each turn runs 3 tasks while 2 more arrive: 1 500 turns leave 1 500 waiting.
    for (let turn = 0; turn < 1500; turn++) {
      drains.shift()!()
      enqueue()
      enqueue()
    }
    assert.isAbove(own.waiting(), 1000)
    const ran = payloads.length - own.waiting()
    // In order across the cuts of the queue's array.
    assert.deepStrictEqual(order, Array.from({ length: ran }, (_, i) => i))
    // Each collection after the job has ended: a WeakRef's target lives to the end of the job that
    // made or read it, and a collection may leave what the stack of that job still pointed to. Up to
    // 10 (two were one too few once in some twenty runs of the suite, one payload left): what the
    // queue kept would never go, whatever the count.
    let kept = ran
    for (let i = 0; i < 10 && kept > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      collectGarbage()
      kept = payloads.slice(0, ran).filter((ref) => ref.deref() !== undefined).length
    }
    assert.strictEqual(kept, 0)
    assert.isTrue(payloads.slice(ran).every((ref) => ref.deref() !== undefined))
  })
})
