/**
 * One GET on a kept-alive connection, timed from the call to the last byte of the body: what the
 * probes and the fairness bench are made of (the single executions have `rawConnection.ts`).
 * node:http with one socket per Agent, so that consecutive requests reuse the connection as a
 * browser or a probe would.
 */
import { Agent, createServer, type IncomingHttpHeaders, request } from "node:http"
import type { AddressInfo } from "node:net"
import { PackedPaths, runSequence } from "./sequence.ts"

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
 * Compiles one of this thread's HTTP clients before it times anything (Node's, the probes' and the
 * fairness bench's; or the single executions' `runSequence` over its `RawConnection`): `requests`
 * GETs on one connection to a server of the thread's own, answers of both framings for the
 * sequence. A measuring thread started fresh otherwise times its client's first runs (interpreted,
 * then compiled) into the first answers it measures, which issue 24 holds to 3× the warm p99 of
 * their family.
 */
export const warmClient = async (client: "node" | "sequence" = "node", requests = 1_000): Promise<void> => {
  const server = createServer((request, response) => {
    // Without a length, Node sends the body chunked.
    if (request.url === "/?chunked") response.write("x".repeat(2_048))
    response.end("x".repeat(2_048))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  try {
    if (client === "node") {
      const agent = oneConnection()
      try {
        for (let i = 0; i < requests; i++) await timedGet(agent, url)
      } finally {
        agent.destroy()
      }
    } else {
      // The whole loop the single executions time, not their connection alone: with the connection
      // alone warmed, V8 compiled `runSequence` itself around the 23rd request of a thread's first
      // sequence (against the bare server, 12 first sequences of 12 over 3× their warm p99).
      await runSequence(url, PackedPaths.of(Array.from({ length: requests }, (_, i) => (i % 2 === 0 ? "/" : "/?chunked"))), 3_600)
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}
