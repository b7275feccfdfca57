/**
 * Turns, with a clock and a scheduler in the test's hands: each task advances the clock by its
 * cost, and a drain runs only when the test runs the one scheduled (as `setImmediate` would,
 * after the turn's I/O).
 */
import { assert, describe, it } from "@effect/vitest"
import { makeTurns } from "./turns.ts"

const harness = (budgetMs: number) => {
  let clock = 0
  const drains: Array<() => void> = []
  const ran: Array<string> = []
  const turns = makeTurns(budgetMs, (drain) => drains.push(drain), () => clock)
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
  return { turns, task, ran, nextTurn, drains }
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

  it("keeps its queue when a task throws, and runs the others", () => {
    const { turns, task, ran, nextTurn } = harness(1)
    turns.run(task("a", 2))
    turns.run(() => {
      throw new Error("boom")
    })
    turns.run(task("b", 0.1))
    assert.throws(() => nextTurn(), "boom")
    assert.isTrue(nextTurn())
    assert.deepStrictEqual(ran, ["a", "b"])
    assert.strictEqual(turns.waiting(), 0)
  })
})
