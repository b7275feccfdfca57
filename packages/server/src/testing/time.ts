/** Real time in tests whose Effect clock is a `TestClock`. */
import * as Effect from "effect/Effect"

/** Waits `ms` of real time (tests whose Effect clock is a `TestClock`). */
export const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls `condition` in real time until it holds (fails after `timeoutMs`). */
export const eventually = (condition: () => boolean, timeoutMs = 5000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    while (!condition()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error("condition not met in time"))
      yield* realSleep(5)
    }
  })
