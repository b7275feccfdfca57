/**
 * Node's `process.nextTick` builds each tick object with a literal of computed (symbol) keys, and
 * every request schedules several ticks (the response's `finish`, the request's end, the socket's
 * write). Started as deployed, the server spent 7.7 % of its thread's CPU under wrk's 304s in V8's
 * runtime path for that literal (`Runtime_DefineKeyedOwnPropertyInLiteral`, `MigrateToMap`, map
 * transitions), measured with `perf`: the literal's inline caches had gone megamorphic in what the
 * process did while starting. Its marks were in the profile in 9 starts of 9; with ticks of every
 * arity scheduled first, about 10 ms, in none of 6. Which start-up history turns the caches
 * megamorphic is V8's business; this only gives `nextTick` its shapes before anything else runs.
 */
const ROUNDS = 20_000

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
