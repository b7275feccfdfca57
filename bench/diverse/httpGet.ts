/**
 * One GET on a kept-alive connection, timed from the call to the last byte of the body: what the
 * single-execution measurements and the probes are made of. node:http with one socket per Agent,
 * so that consecutive requests reuse the connection as a browser or a probe would.
 */
import { Agent, type IncomingHttpHeaders, request } from "node:http"

export interface Answer {
  readonly status: number
  /** Body bytes. */
  readonly bytes: number
  /** Milliseconds from the call to the end of the body. */
  readonly ms: number
  /** Empty when there was no answer. */
  readonly headers: IncomingHttpHeaders
}

/**
 * One connection, kept alive between requests; from `localAddress` when given (a loopback address
 * of its own is another caller to the quota, which keys on the socket's address).
 */
export const oneConnection = (localAddress?: string): Agent =>
  new Agent({ keepAlive: true, maxSockets: 1, ...(localAddress === undefined ? {} : { localAddress }) })

/** GET `url` on `agent`; a socket error is an answer of status 0, so that a run goes on and counts it. */
export const timedGet = (agent: Agent, url: string): Promise<Answer> =>
  new Promise((resolve) => {
    const started = performance.now()
    const failed = () => resolve({ status: 0, bytes: 0, ms: performance.now() - started, headers: {} })
    const sent = request(url, { agent }, (response) => {
      let bytes = 0
      response.on("data", (chunk: Buffer) => (bytes += chunk.length))
      response.once("end", () => resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - started, headers: response.headers }))
      response.once("error", failed)
    })
    sent.once("error", failed)
    sent.end()
  })
