/**
 * The query pool's fair queue: callers in turn (a caller that had nothing waiting first, then the
 * least recently served), FIFO within a caller, heavy executions only when the pool has room, and
 * withdrawals; checked against a naive model that keeps every execution in one arrival-ordered list
 * and stamps each caller with when it started waiting and when it was last served.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { FairQueue, type Waiting } from "./fairQueue.ts"

interface Item extends Waiting {
  readonly name: string
}

const item = (name: string, heavy = false): Item => ({ name, caller: name.replace(/\d+$/, "").toLowerCase(), heavy })

const queueOf = (...items: ReadonlyArray<Item>): FairQueue<Item> => {
  const queue = new FairQueue<Item>()
  for (const each of items) queue.push(each)
  return queue
}

const takeAll = (queue: FairQueue<Item>, heavyRoom = true): Array<string> => {
  const taken: Array<string> = []
  for (let next = queue.take(heavyRoom); next !== undefined; next = queue.take(heavyRoom)) taken.push(next.name)
  return taken
}

describe("FairQueue", () => {
  it("takes the callers in turn, each caller's executions in the order they came", () => {
    const queue = queueOf(item("a1"), item("a2"), item("a3"), item("b1"), item("b2"))
    assert.strictEqual(queue.size, 5)
    assert.deepStrictEqual(takeAll(queue), ["a1", "b1", "a2", "b2", "a3"])
    assert.strictEqual(queue.size, 0)
  })

  it("serves a caller that had nothing waiting before the callers already served", () => {
    const queue = queueOf(item("a1"), item("a2"), item("a3"))
    assert.strictEqual(queue.take(true)?.name, "a1")
    queue.push(item("b1"))
    assert.deepStrictEqual(takeAll(queue), ["b1", "a2", "a3"])
  })

  it("takes no heavy execution without room: the caller's first light one instead, then the next caller's", () => {
    const queue = queueOf(item("a1", true), item("a2"), item("b1", true), item("c1"))
    assert.strictEqual(queue.take(false)?.name, "a2")
    assert.strictEqual(queue.take(false)?.name, "c1")
    assert.strictEqual(queue.take(false), undefined)
    assert.strictEqual(queue.size, 2)
    // b waited without being served: its heavy execution goes before a's, served last.
    assert.deepStrictEqual(takeAll(queue), ["b1", "a1"])
  })

  it("keeps a caller with only heavy executions first in turn while light ones pass, so its next heavy one starts first", () => {
    const queue = queueOf(item("a1", true))
    queue.push(item("b1"))
    queue.push(item("c1"))
    queue.push(item("b2", true))
    assert.deepStrictEqual(takeAll(queue, false), ["b1", "c1"])
    assert.deepStrictEqual(takeAll(queue), ["a1", "b2"])
  })

  it("withdraws a waiting execution, and only once; a caller left with none loses its place", () => {
    const a1 = item("a1")
    const b1 = item("b1")
    const queue = queueOf(a1, item("a2"), b1, item("c1"))
    assert.isTrue(queue.remove(b1))
    assert.isFalse(queue.remove(b1))
    assert.strictEqual(queue.size, 3)
    assert.isTrue(queue.remove(a1))
    // b, withdrawn from, comes back as a newcomer: after a and c, which waited before it.
    queue.push(item("b2"))
    assert.deepStrictEqual(takeAll(queue), ["a2", "c1", "b2"])
    assert.isFalse(queue.remove(a1))
  })

  it("forgets everything on clear", () => {
    const queue = queueOf(item("a1"), item("b1", true))
    queue.clear()
    assert.strictEqual(queue.size, 0)
    assert.strictEqual(queue.take(true), undefined)
  })

  type Op =
    | { readonly kind: "push"; readonly caller: string; readonly heavy: boolean }
    | { readonly kind: "take"; readonly heavyRoom: boolean }
    | { readonly kind: "remove"; readonly which: number }

  // Pushes outweigh takes so that callers build backlogs; withdrawals are rarer still.
  const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant("push" as const), caller: fc.constantFrom("", "a", "b", "c"), heavy: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant("take" as const), heavyRoom: fc.boolean() }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant("remove" as const), which: fc.nat(40) }), weight: 1 }
  )

  /** The naive model: one list in arrival order; a caller's rank in the turn by its stamps. */
  class Model {
    readonly waiting: Array<Item> = []
    private clock = 0
    /** Per caller with executions waiting: when it started waiting, when it was last served since. */
    private readonly stamps = new Map<string, { readonly since: number; served: number | undefined }>()

    push(each: Item): void {
      if (!this.waiting.some((other) => other.caller === each.caller)) this.stamps.set(each.caller, { since: this.clock++, served: undefined })
      this.waiting.push(each)
    }

    take(heavyRoom: boolean): Item | undefined {
      const eligible = this.waiting.filter((each) => heavyRoom || !each.heavy)
      const rank = (caller: string): [number, number] => {
        const stamp = this.stamps.get(caller)!
        return stamp.served === undefined ? [0, stamp.since] : [1, stamp.served]
      }
      let best: Item | undefined
      for (const each of eligible) {
        if (best === undefined) best = each
        const [group, at] = rank(each.caller)
        const [bestGroup, bestAt] = rank(best.caller)
        if (group < bestGroup || (group === bestGroup && at < bestAt)) best = each
      }
      if (best === undefined) return undefined
      this.drop(best)
      const stamp = this.stamps.get(best.caller)
      if (stamp !== undefined) stamp.served = this.clock++
      return best
    }

    remove(each: Item): boolean {
      if (!this.waiting.includes(each)) return false
      this.drop(each)
      return true
    }

    private drop(each: Item): void {
      this.waiting.splice(this.waiting.indexOf(each), 1)
      if (!this.waiting.some((other) => other.caller === each.caller)) this.stamps.delete(each.caller)
    }
  }

  it("takes what the naive model takes, whatever the pushes, takes and withdrawals", () => {
    fc.assert(
      fc.property(fc.array(opArbitrary, { maxLength: 120 }), (ops) => {
        const queue = new FairQueue<Item>()
        const model = new Model()
        const pushed: Array<Item> = []
        for (const op of ops) {
          if (op.kind === "push") {
            const each = { name: `${op.caller}${pushed.length}`, caller: op.caller, heavy: op.heavy }
            pushed.push(each)
            queue.push(each)
            model.push(each)
          } else if (op.kind === "take") {
            assert.strictEqual(queue.take(op.heavyRoom)?.name, model.take(op.heavyRoom)?.name)
          } else if (pushed.length > 0) {
            const each = pushed[op.which % pushed.length]!
            assert.strictEqual(queue.remove(each), model.remove(each))
          }
          assert.strictEqual(queue.size, model.waiting.length)
        }
      }),
      { numRuns: 1000 }
    )
  })
})
