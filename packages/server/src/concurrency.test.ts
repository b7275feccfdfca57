/**
 * Concurrency and time through the real pipeline: slow `stats` handlers (sleeping on the test
 * clock) show that 8 requests execute, later ones wait in FIFO order, a request whose wait or run
 * passes the timeout gets a 503 problem (`Retry-After`, `no-store`), and probes stay responsive.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { Gate, type Waiter, watchdogTick } from "./pipeline/concurrency.ts"
import { Telemetry } from "./telemetry.ts"
import { FAMILY } from "./testing/family.ts"
import { instrumentedStats, makeProbe, type StatsProbe } from "./testing/instrumented.ts"
import { parsePrometheus, sampleValue } from "./testing/prometheus.ts"
import { call, testServer, TRUSTED_LOOPBACK } from "./testing/server.ts"
import { eventually, realSleep } from "./testing/time.ts"

const SETTINGS = { maxConcurrency: 8, requestTimeoutMs: 5000, responseCacheBytes: 0 }

const queued = Effect.map(Telemetry.use(Effect.succeed), (registry) => sampleValue(parsePrometheus(registry.render()), "equides_requests_queued"))
const unavailable = (reason: string) =>
  Effect.map(Telemetry.use(Effect.succeed), (registry) => sampleValue(parsePrometheus(registry.render()), "equides_http_unavailable_total", { reason }))

/**
 * `count` requests to `path(i)`, each in its own fiber, each sent once the one before has reached
 * the gate (running its handler, or queued): they arrive in the order sent, however slow the machine.
 */
const fire = (count: number, path: (i: number) => string, probe: StatsProbe) =>
  Effect.gen(function*() {
    const registry = yield* Telemetry
    const arrived = () => probe.started + (sampleValue(parsePrometheus(registry.render()), "equides_requests_queued") ?? 0)
    const fibers = []
    for (let i = 0; i < count; i++) {
      fibers.push(yield* Effect.forkChild(call(path(i))))
      yield* eventually(() => arrived() === i + 1)
    }
    return fibers
  })

describe("Gate", () => {
  it("hands a freed slot to the first waiter, drops waiters at their deadline", () => {
    const gate = new Gate(1, 10)
    const outcomes: Array<string> = []
    assert.isTrue(gate.tryEnter("x"))
    assert.isFalse(gate.tryEnter("x"))
    gate.enqueue({ caller: "x", deadline: 100, settled: false, granted: false, resume: (granted) => outcomes.push(`a:${granted}`) })
    gate.enqueue({ caller: "x", deadline: 200, settled: false, granted: false, resume: (granted) => outcomes.push(`b:${granted}`) })
    assert.strictEqual(gate.queued, 2)
    gate.sweep(150)
    assert.deepStrictEqual(outcomes, ["a:false"])
    gate.leave("x")
    assert.deepStrictEqual(outcomes, ["a:false", "b:true"])
    assert.strictEqual(gate.running, 1)
    gate.leave("x")
    assert.strictEqual(gate.running, 0)
  })

  it("a waiter that leaves after being handed a slot passes it on; one that leaves while queued is forgotten", () => {
    const gate = new Gate(1, 10)
    const outcomes: Array<string> = []
    const waiter = (name: string) => ({ caller: "x", deadline: 1000, settled: false, granted: false, resume: (granted: boolean) => outcomes.push(`${name}:${granted}`) })
    gate.tryEnter("x")
    const a = waiter("a")
    const b = waiter("b")
    const c = waiter("c")
    gate.enqueue(a)
    gate.enqueue(b)
    gate.enqueue(c)
    gate.cancel(b) // client gone while waiting
    assert.strictEqual(gate.queued, 2)
    gate.leave("x") // slot to a
    gate.cancel(a) // a's client is gone before it could run: the slot goes to c
    assert.deepStrictEqual(outcomes, ["a:true", "c:true"])
    assert.strictEqual(gate.running, 1)
    assert.strictEqual(gate.queued, 0)
  })

  it("a caller holds at most half the slots while another waits: a flooding caller's freed slots go to the other first", () => {
    const gate = new Gate(4, 100)
    const granted: Array<string> = []
    const waiter = (caller: string, name: string) => ({ caller, deadline: 1000, settled: false, granted: false, resume: () => granted.push(name) })
    for (let i = 0; i < 4; i++) assert.isTrue(gate.tryEnter("flood"), "alone, a caller may take every slot")
    for (const name of ["f1", "f2", "f3"]) gate.enqueue(waiter("flood", name))
    gate.enqueue(waiter("other", "o1"))
    gate.enqueue(waiter("other", "o2"))
    gate.leave("flood")
    gate.leave("flood")
    assert.deepStrictEqual(granted, ["o1", "o2"], "the other caller's waiters pass the flood's")
    assert.strictEqual(gate.holding("flood"), 2)
    gate.leave("flood")
    assert.deepStrictEqual(granted, ["o1", "o2", "f1"], "nobody else waits: the flood may take it")
    gate.leave("other")
    assert.deepStrictEqual(granted, ["o1", "o2", "f1", "f2"])
    assert.strictEqual(gate.holding("flood"), 3)
    assert.strictEqual(gate.running, 4)
  })

  it("hands every freed slot as a naive model of the rule does (property)", () => {
    // The model: waiters in arrival order; a freed slot goes to the first waiter whose caller holds
    // fewer than half the slots, else to the first waiter.
    const callers = ["a", "b", "c"]
    const op = fc.oneof(
      fc.record({ kind: fc.constant("arrive" as const), caller: fc.constantFrom(...callers) }),
      fc.record({ kind: fc.constant("end" as const), caller: fc.constantFrom(...callers) }),
      fc.record({ kind: fc.constant("cancel" as const), index: fc.nat() })
    )
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { minLength: 30, maxLength: 120 }), (max, ops) => {
      const gate = new Gate(max, 1000)
      const half = Math.max(1, Math.floor(max / 2))
      const held = new Map<string, number>()
      let queue: Array<{ caller: string; id: number; waiter: Waiter }> = []
      let resumed: Array<number> = []
      let next = 0
      for (const step of ops) {
        if (step.kind === "arrive") {
          if (gate.tryEnter(step.caller)) {
            assert.strictEqual(queue.length, 0, "a free slot while someone waits")
            held.set(step.caller, (held.get(step.caller) ?? 0) + 1)
          } else {
            const id = next++
            const waiter: Waiter = { caller: step.caller, deadline: 1e9, settled: false, granted: false, resume: () => resumed.push(id) }
            gate.enqueue(waiter)
            queue.push({ caller: step.caller, id, waiter })
          }
        } else if (step.kind === "cancel") {
          if (queue.length === 0) continue
          const [gone] = queue.splice(step.index % queue.length, 1)
          gate.cancel(gone.waiter)
        } else {
          if ((held.get(step.caller) ?? 0) === 0) continue
          held.set(step.caller, held.get(step.caller)! - 1)
          const expected = queue.find((w) => (held.get(w.caller) ?? 0) < half) ?? queue[0]
          resumed = []
          gate.leave(step.caller)
          assert.deepStrictEqual(resumed, expected === undefined ? [] : [expected.id])
          if (expected !== undefined) {
            queue = queue.filter((w) => w !== expected)
            held.set(expected.caller, (held.get(expected.caller) ?? 0) + 1)
          }
        }
        for (const caller of callers) assert.strictEqual(gate.holding(caller), held.get(caller) ?? 0)
        assert.strictEqual(gate.queued, queue.length)
      }
    }), { seed: 24, numRuns: 300 })
  })

  it("refuses waiters past the queue bound", () => {
    const gate = new Gate(1, 1)
    gate.tryEnter("x")
    assert.isTrue(gate.enqueue({ caller: "x", deadline: 1, settled: false, granted: false, resume: () => {} }))
    assert.isFalse(gate.enqueue({ caller: "x", deadline: 1, settled: false, granted: false, resume: () => {} }))
  })

  it("ticks at a twentieth of the timeout, between 5 and 250 ms", () => {
    assert.strictEqual(watchdogTick(5000), 250)
    assert.strictEqual(watchdogTick(1000), 50)
    assert.strictEqual(watchdogTick(20), 5)
  })
})

describe("runs longer than the timeout", () => {
  const probe = makeProbe()
  layer(testServer(fromRecords(FAMILY), { settings: SETTINGS, stats: instrumentedStats(probe, "10 seconds") }))(
    "8 run, the rest queue, everything past 5 s is a 503",
    (it) => {
      it.effect("answers 503 to the 8 cut runs and the 2 expired waiters; probes answer meanwhile", () =>
        Effect.gen(function*() {
          const fibers = yield* fire(10, () => "/v1/stats", probe)
          assert.strictEqual(probe.started, 8, "only 8 execute")
          assert.strictEqual(yield* queued, 2)

          // Probes skip the limiter: they answer at once.
          assert.strictEqual((yield* call("/healthz")).status, 200)

          yield* TestClock.adjust("4 seconds")
          yield* realSleep(50)
          assert.strictEqual(probe.finished, 0)
          assert.strictEqual(yield* queued, 2, "still waiting before the deadline")

          yield* TestClock.adjust("1500 millis")
          const replies = yield* Effect.forEach(fibers, Fiber.join)
          for (const reply of replies) {
            assert.strictEqual(reply.status, 503)
            assert.strictEqual(reply.headers["content-type"], "application/problem+json")
            assert.strictEqual(reply.json.type, "/documentation#erreur-service-surcharge")
            assert.strictEqual(reply.headers["retry-after"], "5")
            assert.strictEqual(reply.headers["cache-control"], "no-store")
            assert.isUndefined(reply.headers["etag"])
            assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
          }
          assert.strictEqual(probe.started, 8, "the expired waiters never ran")
          assert.strictEqual(probe.finished, 0, "the runs were cut")
          assert.strictEqual(yield* unavailable("run_timeout"), 8)
          assert.strictEqual(yield* unavailable("queue_timeout"), 2)
          assert.strictEqual(yield* queued, 0)

          // The slots are free again.
          const after = yield* Effect.forkChild(call("/v1/stats"))
          yield* eventually(() => probe.started === 9)
          yield* TestClock.adjust("5 seconds")
          assert.strictEqual((yield* Fiber.join(after)).status, 503)
        }))
    }
  )
})

describe("runs within the timeout", () => {
  const probe = makeProbe()
  layer(testServer(fromRecords(FAMILY), { settings: SETTINGS, stats: instrumentedStats(probe, "1 second") }))(
    "waiters run in arrival order",
    (it) => {
      it.effect("12 requests of 1 s: 8 run, then the 4 waiters in FIFO order, all 200", () =>
        Effect.gen(function*() {
          const fibers = yield* fire(12, (i) => `/v1/stats/repartition?dimension=sexe&limite=${i + 1}`, probe)
          assert.strictEqual(probe.started, 8)
          assert.strictEqual(yield* queued, 4)
          assert.deepStrictEqual(probe.order, ["1", "2", "3", "4", "5", "6", "7", "8"])

          yield* TestClock.adjust("1 second")
          yield* eventually(() => probe.started === 12)
          assert.deepStrictEqual(probe.order.slice(8), ["9", "10", "11", "12"], "FIFO")
          yield* TestClock.adjust("1 second")
          const replies = yield* Effect.forEach(fibers, Fiber.join)
          assert.deepStrictEqual(replies.map((reply) => reply.status), Array(12).fill(200))
          assert.deepStrictEqual(replies.map((reply) => reply.json.dimension), Array(12).fill("sexe"))
        }))
    }
  )
})

describe("fairness between callers", () => {
  const probe = makeProbe()
  const settings = { ...SETTINGS, maxConcurrency: 4, trustedProxies: TRUSTED_LOOPBACK }
  layer(testServer(fromRecords(FAMILY), { settings, stats: instrumentedStats(probe, "1 second") }))(
    "a caller holds at most half the slots while another waits",
    (it) => {
      it.effect("one caller floods 10 requests of 1 s, another sends 2: the other's get the first slots freed", () =>
        Effect.gen(function*() {
          const as = (caller: string) => (path: string) => call(path, { headers: { "x-forwarded-for": caller } })
          const flood = []
          for (let i = 1; i <= 10; i++) {
            flood.push(yield* Effect.forkChild(as("192.0.2.1")(`/v1/stats/repartition?dimension=sexe&limite=${i}`)))
            yield* realSleep(15)
          }
          yield* eventually(() => probe.started === 4)
          const other = []
          for (const limite of [101, 102]) {
            other.push(yield* Effect.forkChild(as("198.51.100.7")(`/v1/stats/repartition?dimension=sexe&limite=${limite}`)))
            yield* realSleep(15)
          }
          yield* realSleep(50)
          assert.strictEqual(yield* queued, 8)
          assert.deepStrictEqual(probe.order, ["1", "2", "3", "4"], "alone, the flood took every slot")

          yield* TestClock.adjust("1 second")
          yield* eventually(() => probe.started === 8)
          assert.deepStrictEqual(probe.order.slice(4), ["101", "102", "5", "6"], "the other caller's requests went first")
          yield* TestClock.adjust("3 seconds")
          const replies = yield* Effect.forEach([...flood, ...other], Fiber.join)
          assert.deepStrictEqual(replies.map((reply) => reply.status), Array(12).fill(200))
        }))
    }
  )
})
