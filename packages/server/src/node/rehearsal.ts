/**
 * The rehearsal (issue 24 item 6): before it answers anyone, the server sends itself, over
 * loopback connections it takes as its own, each route's example request and a few other shapes
 * of the same routes, `REHEARSAL_PASSES` times. The query workers have run every execution before
 * (`execution/work.ts`), yet a family's first requests still took 2–15 ms against a warm p99 of
 * 0.3–1 ms: the time was in the server's thread (Node's parser, the front door, the Effect
 * application, the router, the hand-off to a worker), code that only requests run. Twenty requests
 * of each family brought those first requests down to the warm median.
 *
 * The requests are the server's own: `PublicServer` marks them (`markRehearsal`), admission charges
 * them no quota and keeps nothing of them in the response cache, and neither the metrics nor the
 * logs count them. Requests from outside that arrive meanwhile wait for the rehearsal's end.
 */
import { Api, type DatasetData, endpointsOf, equivalentGenerationsOf, idOf, rehearsedExamples } from "@equides/domain"
import { Agent, request, type Server } from "node:http"
import { type AddressInfo, createServer, type Socket } from "node:net"
import { exampleSubject } from "../examples.ts"
import { EXPLORER_HOME } from "../pageRoutes.ts"
import { pageWarmUps } from "../explorer/pageWarmUp.ts"
import { listPath, pedigreePath } from "../explorer/paths.ts"

/** Requests in flight at once: one per query worker of this machine's two, and two for the server's thread. */
const CONNECTIONS = 4

/**
 * The most a target's requests take before it is sent no more: the routes that execute for tens of
 * milliseconds (a mating's page, a breed's genetics on first use) have run on the workers before
 * ready (`execution/work.ts`), and what their requests share with the others, the server's thread
 * has by then run through the cheap targets many times.
 */
const TARGET_BUDGET_MS = 25

/** What a rehearsal sends: each target, `passes` times (or for `TARGET_BUDGET_MS`). */
export interface RehearsalPlan {
  readonly targets: ReadonlyArray<string>
  readonly passes: number
}

/**
 * The record with the most equivalent generations (the load's t; the first in file order on ties):
 * the largest pedigree to write. The example subject's is a short one, and the first deep pedigrees
 * after ready paid for the lane's writer at that size: the deepest's first three 2.2–4.1, 2.6–2.9
 * and 0.4–1.6 ms, then 0.4 (a fresh server at 4.45 M records, a client warmed first); rehearsed,
 * 0.7–1.4 ms, then 0.3–0.4.
 */
const deepestRow = (data: DatasetData): number => {
  let best = 0
  let most = equivalentGenerationsOf(data.genetics, 0)
  for (let row = 1; row < data.size; row++) {
    const t = equivalentGenerationsOf(data.genetics, row)
    if (t > most) {
      best = row
      most = t
    }
  }
  return best
}

/**
 * The rehearsal's requests for `data` (none when it is empty): every route's documented example
 * (but those whose first use is left to the first request, `rehearsedExamples`) and every explorer
 * page's warm-up (the example subject's), and the shapes of the same routes the bench's families
 * and a browser's first visit take that those leave out (the deepest record's pedigree among them).
 */
export const rehearsalTargets = (data: DatasetData): Array<string> => {
  const subject = exampleSubject(data, () => undefined)
  if (subject === undefined) return []
  const { id } = subject
  const deepest = idOf(data, deepestRow(data))
  return [
    ...new Set([
      // The longest first (the pages rendered on the workers, up to 0.1 s for a mating's), so that the
      // cheap ones are sent beside them rather than after.
      ...pageWarmUps(subject).map((page) => page.url),
      pedigreePath(deepest, 8),
      ...rehearsedExamples(endpointsOf(Api), subject).map((example) => example.url),
      "/v1/equides",
      `/v1/equides/${id}/pedigree?generations=8`,
      `/v1/equides/${deepest}/pedigree?generations=8`,
      `/v1/equides/${id}/descendance`,
      `/v1/equides/${id}/consanguinite?generations=12`,
      "/v1/stats/genetique",
      EXPLORER_HOME,
      listPath()
    ])
  ]
}

/** One GET on `agent`; true when it was answered (whatever its status). */
const get = (agent: Agent, port: number, path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const sent = request({ host: "127.0.0.1", port, path, agent }, (response) => {
      response.resume()
      response.once("end", () => resolve(true))
      response.once("error", () => resolve(false))
    })
    sent.once("error", () => resolve(false))
    sent.end()
  })

/**
 * Sends `plan` to `server` through loopback connections given to it as its own (`connection`
 * events), each first passed to `own`: `CONNECTIONS` targets at a time, each sent `passes` times in
 * a row or until its requests have taken `TARGET_BUDGET_MS`, until every target is done or
 * `stopped()` says to stop. Resolves with the number of requests answered (0 when no loopback port
 * could be opened).
 */
export const rehearse = (server: Server, plan: RehearsalPlan, own: (socket: Socket) => void, stopped: () => boolean): Promise<number> =>
  new Promise((resolve) => {
    const loopback = createServer((socket) => {
      own(socket)
      server.emit("connection", socket)
    })
    loopback.once("error", () => resolve(0))
    loopback.listen(0, "127.0.0.1", () => {
      const { port } = loopback.address() as AddressInfo
      let next = 0
      let answered = 0
      // Each connection is closed after its first target and another opened for the rest: the first
      // connection a process closes makes V8 throw away the code it optimised for Node's sockets and
      // streams (a destroyed socket's new shape, then "dependent prototype chain changed" for some 25
      // functions, `--trace-deopt`). Closed only at the rehearsal's end, that code ran unoptimised
      // again at the first requests after ready; closed early, the later targets make it again.
      const sendNext = async (): Promise<void> => {
        let agent = new Agent({ keepAlive: true, maxSockets: 1 })
        for (let sent = 0; next < plan.targets.length && !stopped(); sent++) {
          if (sent === 1) {
            agent.destroy()
            agent = new Agent({ keepAlive: true, maxSockets: 1 })
          }
          const target = plan.targets[next++]!
          const started = performance.now()
          for (let pass = 0; pass < plan.passes && performance.now() - started < TARGET_BUDGET_MS && !stopped(); pass++) {
            if (await get(agent, port, target)) answered++
          }
        }
        agent.destroy()
      }
      void Promise.all(Array.from({ length: CONNECTIONS }, sendNext)).then(() => {
        loopback.close()
        resolve(answered)
      })
    })
  })
