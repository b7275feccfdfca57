/**
 * The executions waiting for a query worker (`QueryPool.ts`), queued per caller so that one caller's
 * backlog never stands in front of another's request (issue 24, item 5): a free worker takes the
 * next execution of the callers in turn, FIFO within a caller.
 *
 * The turn: a caller that had nothing waiting comes first (in the order such callers arrived), then
 * the callers served since, the least recently served first; a caller served goes to the end of the
 * turn while it has more waiting. A caller sending one request at a time (a client following links)
 * thus waits for at most the executions already running, not for a round of every backlogged caller.
 *
 * Heavy executions (`Waiting.heavy`) are taken only when the pool says there is room for one
 * (`take(heavyRoom)`); until then the caller's first light execution, if any, is taken in its place,
 * and a caller with only heavy ones keeps its place in the turn (no starvation: the next heavy
 * execution to start is that of the caller first in turn).
 *
 * Plain arrays scanned from the start: requests execute under the concurrency gate, so at most
 * `MAX_CONCURRENCY` of them (8 by default) wait here, from few callers.
 */

/** What the queue needs of an execution. */
export interface Waiting {
  /** Who asked (the quota's caller key; empty: no caller known, one queue for all such). */
  readonly caller: string
  /** It runs only when the pool has room for a heavy execution. */
  readonly heavy: boolean
}

export class FairQueue<T extends Waiting> {
  /** Callers that had nothing waiting, in the order they arrived. */
  private fresh = new Map<string, Array<T>>()
  /** Callers served since they last had nothing waiting, the least recently served first. */
  private turn = new Map<string, Array<T>>()
  private count = 0

  /** Executions waiting. */
  get size(): number {
    return this.count
  }

  push(item: T): void {
    const queue = this.turn.get(item.caller) ?? this.fresh.get(item.caller)
    if (queue === undefined) this.fresh.set(item.caller, [item])
    else queue.push(item)
    this.count++
  }

  /** The next execution to run, taken out of the queue; heavy ones only when `heavyRoom`. */
  take(heavyRoom: boolean): T | undefined {
    return this.takeFrom(this.fresh, heavyRoom) ?? this.takeFrom(this.turn, heavyRoom)
  }

  /** Takes `item` out of the queue (a withdrawal); false when it was not waiting. */
  remove(item: T): boolean {
    const queue = this.fresh.get(item.caller) ?? this.turn.get(item.caller)
    const at = queue === undefined ? -1 : queue.indexOf(item)
    if (at < 0) return false
    queue!.splice(at, 1)
    this.count--
    if (queue!.length === 0) {
      this.fresh.delete(item.caller)
      this.turn.delete(item.caller)
    }
    return true
  }

  clear(): void {
    this.fresh = new Map()
    this.turn = new Map()
    this.count = 0
  }

  private takeFrom(callers: Map<string, Array<T>>, heavyRoom: boolean): T | undefined {
    for (const [caller, queue] of callers) {
      const at = heavyRoom ? 0 : queue.findIndex((item) => !item.heavy)
      if (at < 0) continue
      const [item] = queue.splice(at, 1)
      this.count--
      callers.delete(caller)
      if (queue.length > 0) this.turn.set(caller, queue)
      return item
    }
    return undefined
  }
}
