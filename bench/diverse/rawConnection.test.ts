import { assert, describe, it } from "@effect/vitest"
import { createServer as createTcpServer, type AddressInfo } from "node:net"
import { recordingServer } from "../recordingServer.testing.ts"
import { timedGet, oneConnection } from "./httpGet.ts"
import { RawConnection } from "./rawConnection.ts"

describe("RawConnection", () => {
  it("reads each answer's status and body size, whatever its framing, on one kept-alive connection", async () => {
    const sockets = new Set<unknown>()
    const server = await recordingServer((request, response) => {
      sockets.add(request.socket)
      const url = request.url ?? ""
      if (url === "/not-modified") {
        response.statusCode = 304
        response.end()
      } else if (url === "/missing") {
        response.statusCode = 404
        response.end("nothing here")
      } else if (url === "/chunked") {
        // Several chunks, one of them larger than a read, sent apart.
        response.write("a".repeat(10))
        setTimeout(() => {
          response.write("b".repeat(300_000))
          response.end("c")
        }, 5)
      } else if (url === "/empty") response.end()
      else response.end("x".repeat(5_000))
    })
    const connection = new RawConnection(new URL(server.baseUrl))
    try {
      const answers = []
      for (const path of ["/", "/chunked", "/not-modified", "/missing", "/empty", "/chunked", "/"]) answers.push(await connection.get(path))
      assert.deepStrictEqual(answers.map(({ status, bytes }) => [status, bytes]), [
        [200, 5_000],
        [200, 300_011],
        [304, 0],
        [404, 12],
        [200, 0],
        [200, 300_011],
        [200, 5_000]
      ])
      for (const { ms } of answers) assert.isAbove(ms, 0)
      assert.strictEqual(sockets.size, 1)
    } finally {
      connection.close()
      await server.close()
    }
  })

  it("sends the path encoded as Node's client sends it", async () => {
    const server = await recordingServer()
    const connection = new RawConnection(new URL(server.baseUrl))
    const agent = oneConnection()
    try {
      const path = "/explorer/equides?race=Trotteur Français&q=l'océan"
      await connection.get(path)
      await timedGet(agent, server.baseUrl + path)
      assert.strictEqual(server.paths[0], server.paths[1])
    } finally {
      connection.close()
      agent.destroy()
      await server.close()
    }
  })

  it("opens another connection after one the server closes, and answers 0 for an answer cut short", async () => {
    let requests = 0
    const server = await recordingServer((request, response) => {
      requests++
      if (request.url === "/close") {
        response.setHeader("Connection", "close")
        response.end("bye")
      } else if (request.url === "/cut") {
        response.writeHead(200, { "Content-Length": "100" })
        response.write("partial")
        setTimeout(() => request.socket.destroy(), 5)
      } else response.end("ok")
    })
    const connection = new RawConnection(new URL(server.baseUrl))
    try {
      assert.deepStrictEqual((await connection.get("/close")).status, 200)
      assert.deepStrictEqual((await connection.get("/")).status, 200)
      assert.deepStrictEqual((await connection.get("/cut")).status, 0)
      assert.deepStrictEqual((await connection.get("/")).status, 200)
      assert.strictEqual(requests, 4)
    } finally {
      connection.close()
      await server.close()
    }
  })

  it("reads a body sent without a length until the connection closes", async () => {
    const server = createTcpServer((socket) =>
      socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end"))
    )
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const connection = new RawConnection(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
    try {
      const answer = await connection.get("/")
      assert.deepStrictEqual([answer.status, answer.bytes], [200, 13])
    } finally {
      connection.close()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
