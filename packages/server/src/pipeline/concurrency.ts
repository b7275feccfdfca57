/**
 * Concurrency and time (design 3): at most `MAX_CONCURRENCY` requests execute; later ones wait in
 * a FIFO queue; a request whose wait plus run passes `REQUEST_TIMEOUT_MS` gets a 503.
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
import type { Fiber } from "effect"

/** A request holding a slot. */
export interface Ticket {
  readonly fiber: Fiber.Fiber<unknown, unknown>
  readonly deadline: number
  /** Set by the watchdog before it interrupts the fiber. */
  timedOut: boolean
}

/** A request waiting for a slot. */
export interface Waiter {
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

  readonly maxConcurrency: number
  /** Waiters beyond this are refused at once. */
  readonly maxQueue: number

  constructor(maxConcurrency: number, maxQueue: number) {
    this.maxConcurrency = maxConcurrency
    this.maxQueue = maxQueue
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting
  }

  /** Takes a free slot if there is one (the fast path). */
  tryEnter(): boolean {
    if (this.running < this.maxConcurrency) {
      this.running++
      return true
    }
    return false
  }

  /** Queues `waiter`; false when the queue is full. */
  enqueue(waiter: Waiter): boolean {
    if (this.waiting >= this.maxQueue) return false
    this.queue.push(waiter)
    this.waiting++
    return true
  }

  /**
   * A waiter interrupted (client gone): forgotten (removed from the array lazily); if a slot had
   * just been handed to it, the slot goes on to the next waiter.
   */
  cancel(waiter: Waiter): void {
    if (waiter.granted) {
      waiter.granted = false
      this.leave()
      return
    }
    if (waiter.settled) return
    waiter.settled = true
    this.waiting--
  }

  private nextWaiter(): Waiter | undefined {
    while (this.head < this.queue.length) {
      const waiter = this.queue[this.head]
      this.queue[this.head++] = undefined
      if (waiter !== undefined && !waiter.settled) return waiter
    }
    return undefined
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
  }

  /** Leaves a slot: handed to the first waiter, if any (FIFO), else freed. */
  leave(): void {
    const waiter = this.nextWaiter()
    this.compact()
    if (waiter === undefined) {
      this.running--
      return
    }
    waiter.settled = true
    waiter.granted = true
    this.waiting--
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
        waiter.settled = true
        this.waiting--
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
