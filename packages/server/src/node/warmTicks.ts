/**
 * Node's `process.nextTick` builds each tick object with a literal of computed (symbol) keys, and
 * every request schedules several ticks (the response's `finish`, the request's end, the socket's
 * write). Started as deployed, the server spent 7.7 % of its thread's CPU under wrk's 304s in V8's
 * runtime path for that literal (`Runtime_DefineKeyedOwnPropertyInLiteral`, `MigrateToMap`, map
 * transitions), measured with `perf`: the literal's inline caches had gone megamorphic in what the
 * process did while starting. Its marks were in the profile in 9 starts of 9; with ticks of every
 * arity scheduled first, in none of 8 (2 of them with the count kept here). Which start-up history
 * turns the caches megamorphic is V8's business; this gives `nextTick` its shapes first.
 */

/**
 * 2 000 ticks, well under a millisecond. 80 000 did as well for the inline caches, but the process
 * then stayed 150 MiB larger after a load (measured twice, not explained): keep it small.
 */
const ROUNDS = 500

const ignore = (): void => {}

/** Schedules and runs ticks of one to four arguments, before the server does anything else. */
export const warmTicks = (): void => {
  const shape = {}
  for (let i = 0; i < ROUNDS; i++) {
    process.nextTick(ignore)
    process.nextTick(ignore, i)
    process.nextTick(ignore, i, shape)
    process.nextTick(ignore, i, shape, "")
  }
}
