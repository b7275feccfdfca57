/**
 * A query worker whose collection after answering the search `q=<workerData.slow>` holds its thread
 * (`Atomics.wait`, as a long young collection does) until the test grants a permit
 * (`workerData.cells[0]`), having counted itself in `cells[1]`; after any other answer it collects
 * at once, counted in `cells[2]`. It collects after every answer, or, given `workerData.dueEvery`,
 * when its policy says so: every that many answers (what `serveQueries` must follow). Executions
 * themselves run ungated.
 */
import { workerData } from "node:worker_threads"
import { takePermit } from "./permits.fixture.ts"
import { serveQueries } from "./serveQueries.ts"
import { perform, type Work } from "./work.ts"
import type { YoungCollectionDue } from "./youngCollectionDue.ts"

const { cells, slow, dueEvery } = workerData as { readonly cells: Int32Array; readonly slow: string; readonly dueEvery?: number }

let last: Work | undefined

/** After every answer, whatever it left; or every `dueEvery` answers. */
let answers = 0
const due: YoungCollectionDue = dueEvery === undefined
  ? { now: () => true, collected: () => {} }
  : { now: () => ++answers % dueEvery === 0, collected: () => {} }

const collectAfterAnswer = (): void => {
  if (last === undefined || !("endpoint" in last) || last.endpoint !== "suggest" || last.query.q !== slow) {
    Atomics.add(cells, 2, 1)
    return
  }
  Atomics.add(cells, 1, 1)
  takePermit(cells, 0)
}

serveQueries((data, work) => {
  last = work
  return perform(data, work)
}, undefined, collectAfterAnswer, due)
