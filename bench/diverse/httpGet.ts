/**
 * One GET on a kept-alive connection, timed from the call to the last byte of the body: what the
 * probes and the fairness bench are made of (the single executions have `rawConnection.ts`).
 * node:http with one socket per Agent, so that consecutive requests reuse the connection as a
 * browser or a probe would.
 */
import { Agent, createServer, type IncomingHttpHeaders, request } from "node:http"
import type { AddressInfo } from "node:net"

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

/**
 * Runs `use` against an HTTP server of this thread's own, closed after: what a measuring thread
 * warms its client on before it times anything. Its answers are 2 KiB, `/?chunked` sent chunked.
 */
export const onOwnServer = async (use: (url: string) => Promise<void>): Promise<void> => {
  const server = createServer((request, response) => {
    // Without a length, Node sends the body chunked.
    if (request.url === "/?chunked") response.write("x".repeat(2_048))
    response.end("x".repeat(2_048))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

/**
 * Compiles Node's HTTP client (the probes' and the fairness bench's) before the thread times
 * anything: `requests` GETs on one connection to a server of its own (`onOwnServer`). A measuring
 * thread started fresh otherwise times its client's first runs (interpreted, then compiled) into the
 * first answers it measures. The single executions warm theirs with `warmSequence` (`sequence.ts`).
 */
export const warmClient = (requests = 1_000): Promise<void> =>
  onOwnServer(async (url) => {
    const agent = oneConnection()
    try {
      for (let i = 0; i < requests; i++) await timedGet(agent, url)
    } finally {
      agent.destroy()
    }
  })
