/**
 * The server's thread shared out by turns of its event loop (issue 9, item 2): the lookups the
 * direct lane executes there (a record, a pedigree, a progeny page: 0.1 to 0.3 ms each) get at
 * most `budgetMs` of each turn. Node reads every socket that is ready in one turn and emits their
 * requests one after the other; with 50 pedigrees ready at once, a probe or a 304 read in the same
 * turn waited for all 50 (probe p50 12 ms, p99 39 ms under 50 connections of pedigrees). Past the
 * budget, a lookup waits in a queue that `setImmediate` drains, a budget at a time, after Node has
 * read what arrived meanwhile: what needs no execution (a probe, a 304, a kept response) is
 * answered as it is read, and the lookups keep their order.
 *
 * The query workers' answers resume their requests in turns of their own, for the same reason
 * (`execution/Executor.ts`: Node reads a worker's messages in a loop while more arrive).
 *
 * A task that throws is reported (`onThrow`) and the others run: a throw left to `setImmediate`
 * would reach Node's `uncaughtException` and stop the process.
 */
import { type DefectReport, reportDefect } from "./defects.ts"

/** How many taken slots the queue's array may keep at its head before it is cut. */
const COMPACT_FROM = 1024

export interface Turns {
  /** Runs `task` now if this turn's budget is not spent and nothing waits; otherwise queues it. */
  readonly run: (task: () => void) => void
  /** Tasks waiting for a turn. */
  readonly waiting: () => number
}

/**
 * `defer`: how a drain is scheduled (`setImmediate`: after the turn's I/O); `now`: the clock the
 * budget is measured with, in milliseconds; `onThrow`: what is done with a task's throw.
 */
export const makeTurns = (
  budgetMs: number,
  defer: (drain: () => void) => void = setImmediate,
  now: () => number = () => performance.now(),
  onThrow: DefectReport = reportDefect
): Turns => {
  // A queue as an array and the index of its head (`shift` copies the array). A slot is emptied as
  // its task is taken, and the array cut from its head once that is most of it: under sustained
  // load the queue may never empty, and what it once held must not stay reachable.
  let queue: Array<(() => void) | undefined> = []
  let head = 0

  const take = (): () => void => {
    const task = queue[head]!
    queue[head++] = undefined
    return task
  }
  let spent = 0
  let scheduled = false

  const timed = (task: () => void): void => {
    const started = now()
    try {
      task()
    } catch (defect) {
      onThrow(defect)
    } finally {
      spent += now() - started
    }
  }

  const schedule = (): void => {
    if (scheduled) return
    scheduled = true
    defer(drain)
  }

  // A new budget for the tasks that waited; what still waits gets the next turn's.
  const drain = (): void => {
    scheduled = false
    spent = 0
    try {
      while (head < queue.length && spent < budgetMs) timed(take())
    } finally {
      if (head === queue.length) {
        queue = []
        head = 0
      } else if (head >= COMPACT_FROM && head * 2 >= queue.length) {
        queue = queue.slice(head)
        head = 0
      }
      if (head < queue.length || spent >= budgetMs) schedule()
    }
  }

  return {
    run: (task) => {
      if (head === queue.length && spent < budgetMs) {
        try {
          timed(task)
        } finally {
          // Spent: a drain gives the next turn its budget back.
          if (spent >= budgetMs) schedule()
        }
        return
      }
      queue.push(task)
      schedule()
    },
    waiting: () => queue.length - head
  }
}
