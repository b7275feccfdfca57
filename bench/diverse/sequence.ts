/**
 * Single executions: `paths` sent one after the other on one kept-alive connection, each once, for
 * at most `duration` seconds. With the response cache off every answer is an execution, and with
 * nothing else in flight its latency is the query's own cost plus the HTTP round trip.
 *
 * The connection is opened by one unrecorded `GET /healthz`, as the probe's is (`probe.ts`): a
 * family's first requests measure the route's first use (issue 24 item 6), not the TCP handshake
 * and the server's first parse on a new socket, which cost a bare `node:http` server 1–5 ms too.
 */
import { oneConnection, timedGet } from "./httpGet.ts"

export interface Executed {
  readonly path: string
  readonly status: number
  readonly bytes: number
  readonly ms: number
}

/** Something to do between two requests, once `requests` have been answered (its time is not any request's). */
export interface Pause {
  readonly requests: number
  readonly run: () => Promise<void>
}

/** What opens the connection, unrecorded. */
const OPENING_PATH = "/healthz"

export const runSequence = async (baseUrl: string, paths: ReadonlyArray<string>, duration: number, pause?: Pause): Promise<Array<Executed>> => {
  const agent = oneConnection()
  const deadline = performance.now() + duration * 1000
  const executed: Array<Executed> = []
  try {
    await timedGet(agent, baseUrl + OPENING_PATH)
    for (const path of paths) {
      if (performance.now() >= deadline) break
      const { status, bytes, ms } = await timedGet(agent, baseUrl + path)
      executed.push({ path, status, bytes, ms })
      if (executed.length === pause?.requests) await pause.run()
    }
  } finally {
    agent.destroy()
  }
  return executed
}
