/**
 * A query worker that counts, in shared memory the test reads, the families (`familyOf`) it has
 * run at least once (so a family's count is the number of workers that ran it), and holds every
 * execution until the test opens its gate (`go[0] ≠ 0`): a test can thus hold the warm-up and see
 * that readiness waits for it.
 */
import { workerData } from "node:worker_threads"
import { serveQueries } from "./serveQueries.ts"
import { familyOf, perform } from "./work.ts"

const { counts, go, families } = workerData as {
  readonly counts: SharedArrayBuffer
  readonly go: SharedArrayBuffer
  readonly families: ReadonlyArray<string>
}
const tally = new Int32Array(counts)
const gate = new Int32Array(go)
const seen = new Set<number>()

serveQueries((data, work) => {
  Atomics.wait(gate, 0, 0)
  const at = families.indexOf(familyOf(work))
  // Families the test does not list are counted in the last cell.
  const family = at < 0 ? families.length : at
  if (!seen.has(family)) Atomics.add(tally, family, 1)
  seen.add(family)
  return perform(data, work)
})
