/**
 * Concurrency and time (design 3): at most `MAX_CONCURRENCY` requests execute; later ones wait in
 * a FIFO queue; a request whose wait plus run passes `REQUEST_TIMEOUT_MS` gets a 503.
 *
 * Fairness between callers (issue 24, item 5): a caller holds at most half of the slots
 * (`perCaller`, at least 1) while another caller waits. A freed slot goes to the first waiter
 * whose caller holds fewer than that; only when every waiter's caller holds its half does it go
 * to the first waiter (then no other caller is waiting, or `MAX_CONCURRENCY` is odd). A caller
 * alone may use every slot; a running request is never cut to make room: a flooding caller gives
 * its slots back, one by one, as its requests end.
 *
 * Timers: the fast path (a free slot) arms none, neither a timer nor a fiber: it is a counter.
 * Deadlines, for waiting and running requests alike, are enforced by ONE watchdog fiber per
 * server that wakes every `tick` (a twentieth of the timeout, between 5 and 250 ms) and
 * - drops the waiters whose deadline has passed (they answer 503 at once); deadlines grow in
 *   arrival order (one timeout for all), so it only ever looks at the head of the queue;
 * - interrupts the running requests whose deadline has passed: the request fiber is cut at its
 *   next yield point, and the pipeline, outside the interruptible route, answers the 503.
 * A deadline is thus enforced up to one tick late (250 ms at the default 5 s). A handler that
 * computes synchronously has no yield point: it finishes, and its answer is sent.
 *
 * The watchdog sleeps on Effect's `Clock`, so tests drive it with `TestClock`.
 */
import type * as Fiber from "effect/Fiber"

/** A request holding a slot. */
export interface Ticket {
  readonly fiber: Fiber.Fiber<unknown, unknown>
  readonly deadline: number
  /** Set by the watchdog before it interrupts the fiber. */
  timedOut: boolean
}

/** A request waiting for a slot. */
export interface Waiter {
  /** Who asks (the quota's caller key). */
  readonly caller: string
  readonly deadline: number
  /**
   * `true`: the slot is handed over; `false`: the deadline passed first. Called from another
   * fiber's code: the waiter should resume later (a microtask), not on this stack.
   */
  readonly resume: (granted: boolean) => void
  /** Out of the queue (granted, expired or cancelled). */
  settled: boolean
  /** Holds a slot handed over by `leave`: if it gives up before running, it must `leave` in turn. */
  granted: boolean
}

export class Gate {
  running = 0
  private readonly tickets = new Set<Ticket>()
  private queue: Array<Waiter | undefined> = []
  private head = 0
  private waiting = 0
  /** Slots held, per caller holding any. */
  private readonly held = new Map<string, number>()
  /** Waiters, per caller with any waiting: one caller alone needs no look past the head. */
  private readonly waitersOf = new Map<string, number>()

  readonly maxConcurrency: number
  /** Waiters beyond this are refused at once. */
  readonly maxQueue: number
  /** Slots a caller may hold while another waits: half, at least 1. */
  readonly perCaller: number

  constructor(maxConcurrency: number, maxQueue: number) {
    this.maxConcurrency = maxConcurrency
    this.maxQueue = maxQueue
    this.perCaller = Math.max(1, Math.floor(maxConcurrency / 2))
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting
  }

  /** Slots `caller` holds. */
  holding(caller: string): number {
    return this.held.get(caller) ?? 0
  }

  /**
   * Takes a free slot if there is one (the fast path). A free slot means nobody waits (a freed
   * slot goes to a waiter first), so fairness has nothing to decide here.
   */
  tryEnter(caller: string): boolean {
    if (this.running < this.maxConcurrency) {
      this.running++
      this.hold(caller)
      return true
    }
    return false
  }

  /** Queues `waiter`; false when the queue is full. */
  enqueue(waiter: Waiter): boolean {
    if (this.waiting >= this.maxQueue) return false
    this.queue.push(waiter)
    this.waiting++
    this.waitersOf.set(waiter.caller, (this.waitersOf.get(waiter.caller) ?? 0) + 1)
    return true
  }

  private hold(caller: string): void {
    this.held.set(caller, this.holding(caller) + 1)
  }

  private release(caller: string): void {
    const holding = this.holding(caller)
    if (holding <= 1) this.held.delete(caller)
    else this.held.set(caller, holding - 1)
  }

  /** Out of the queue: granted, expired or cancelled. */
  private settle(waiter: Waiter): void {
    waiter.settled = true
    this.waiting--
    const left = (this.waitersOf.get(waiter.caller) ?? 1) - 1
    if (left === 0) this.waitersOf.delete(waiter.caller)
    else this.waitersOf.set(waiter.caller, left)
  }

  /**
   * A waiter interrupted (client gone): forgotten (removed from the array lazily); if a slot had
   * just been handed to it, the slot goes on to the next waiter.
   */
  cancel(waiter: Waiter): void {
    if (waiter.granted) {
      waiter.granted = false
      this.leave(waiter.caller)
      return
    }
    if (waiter.settled) return
    this.settle(waiter)
  }

  /** The waiter a freed slot goes to (taken out of the array), or undefined when none waits. */
  private nextWaiter(): Waiter | undefined {
    while (this.head < this.queue.length) {
      const waiter = this.queue[this.head]
      if (waiter !== undefined && !waiter.settled) break
      this.queue[this.head++] = undefined
    }
    if (this.head >= this.queue.length) return undefined
    const first = this.queue[this.head]!
    if (this.holding(first.caller) >= this.perCaller && this.waitersOf.size > 1) {
      // The first waiter's caller holds its half while others wait: the first of a caller under it goes first.
      for (let i = this.head + 1; i < this.queue.length; i++) {
        const waiter = this.queue[i]
        if (waiter !== undefined && !waiter.settled && this.holding(waiter.caller) < this.perCaller) {
          this.queue[i] = undefined
          return waiter
        }
      }
    }
    this.queue[this.head++] = undefined
    return first
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
  }

  /** `caller` leaves a slot: handed to the next waiter (FIFO, fairness first), if any, else freed. */
  leave(caller: string): void {
    this.release(caller)
    const waiter = this.nextWaiter()
    this.compact()
    if (waiter === undefined) {
      this.running--
      return
    }
    this.settle(waiter)
    waiter.granted = true
    this.hold(waiter.caller)
    waiter.resume(true)
  }

  startRun(ticket: Ticket): void {
    this.tickets.add(ticket)
  }

  endRun(ticket: Ticket): void {
    this.tickets.delete(ticket)
  }

  /** The watchdog's round at `now`: expired waiters dropped, overdue runs interrupted. */
  sweep(now: number): void {
    while (this.head < this.queue.length) {
      const waiter = this.queue[this.head]
      if (waiter !== undefined && !waiter.settled) {
        if (waiter.deadline > now) break
        this.settle(waiter)
        waiter.resume(false)
      }
      this.queue[this.head++] = undefined
    }
    this.compact()
    for (const ticket of this.tickets) {
      if (!ticket.timedOut && ticket.deadline <= now) {
        ticket.timedOut = true
        ticket.fiber.interruptUnsafe()
      }
    }
  }
}

/** The watchdog's period for a timeout: a twentieth of it, between 5 and 250 ms. */
export const watchdogTick = (timeoutMs: number): number => Math.min(250, Math.max(5, Math.floor(timeoutMs / 20)))
