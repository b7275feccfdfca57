/**
 * The public Node server's handling of request bodies: a request announcing none reaches the
 * application with its stream already ended (Node's `optimizeEmptyRequests`: no stream life cycle
 * to run for the GETs that make this API's traffic), and a request with a body still delivers it.
 */
import { assert, describe, it } from "@effect/vitest"
import type { IncomingMessage } from "node:http"
import { request as send } from "node:http"
import type { AddressInfo } from "node:net"
import { makeNodeServer } from "./server.ts"

interface Seen {
  readonly endedOnArrival: boolean
  readonly body: string
}

/** Sends one request to a fresh server (no front door) and returns what its listener saw. */
const exchange = async (method: string, body?: string): Promise<Seen> => {
  const server = makeNodeServer()
  const seen = new Promise<Seen>((resolve) => {
    server.on("request", (incoming: IncomingMessage, response) => {
      const endedOnArrival = incoming.readableEnded
      const chunks: Array<Buffer> = []
      const done = () => {
        resolve({ endedOnArrival, body: Buffer.concat(chunks).toString("utf8") })
        response.end()
      }
      if (endedOnArrival) return done()
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", done)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve, reject) => {
    const outgoing = send({ host: "127.0.0.1", port, method, path: "/v1/meta", agent: false }, (reply) => {
      reply.resume()
      reply.on("end", resolve)
    })
    outgoing.on("error", reject)
    outgoing.end(body)
  })
  const answered = await seen
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return answered
}

describe("the public Node server and request bodies", () => {
  it("gives a request without a body an ended stream", async () => {
    assert.deepStrictEqual(await exchange("GET"), { endedOnArrival: true, body: "" })
  })

  it("still delivers a request's body", async () => {
    assert.deepStrictEqual(await exchange("POST", "{\"a\":1}"), { endedOnArrival: false, body: "{\"a\":1}" })
  })
})
