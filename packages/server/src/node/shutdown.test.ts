/**
 * The process: SIGTERM/SIGINT stop accepting, let the request in flight finish, and exit 0; an
 * invalid configuration stops the start with a message naming the variable and a non-zero code.
 * Real child processes (`main.ts`, and `shutdown.fixture.ts`: the same server with slow handlers).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { idN } from "@equides/domain/testing"
import { FAMILY, SIRE } from "../testing/family.ts"
import { freePort } from "../testing/ports.ts"

const dir = mkdtempSync(join(tmpdir(), "equides-shutdown-"))
const DATA_FILE = join(dir, "family.jsonl")
writeFileSync(DATA_FILE, FAMILY.map((record) => JSON.stringify(record)).join("\n") + "\n")

interface Child {
  readonly process: ChildProcess
  readonly output: () => string
  /** Exit code (or signal name) and when it came. */
  readonly exited: Promise<{ readonly code: number | string; readonly at: number }>
}

const start = (script: string, env: Record<string, string>): Child => {
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", join(import.meta.dirname, script)], {
    env: { ...process.env, DATA_FILE, HOST: "127.0.0.1", METRICS_PORT: "off", RATE_LIMIT_RATE: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  const exited = new Promise<{ code: number | string; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code: code ?? signal ?? "?", at: Date.now() }))
  )
  return { process: child, output: () => output, exited }
}

const ready = async (child: Child, base: string) => {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const status = await fetch(`${base}/readyz`).then((response) => response.status, () => 0)
    if (status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.process.kill("SIGKILL")
  throw new Error(`not ready:\n${child.output()}`)
}

/**
 * Waits until `seen` holds, polling every 20 ms: an event in the child's output or on the wire,
 * not a guess of time. Fails with the child's output after 20 s.
 */
const until = async (seen: () => boolean | Promise<boolean>, child: Child) => {
  const deadline = Date.now() + 20_000
  while (!(await seen())) {
    if (Date.now() > deadline) throw new Error(`not seen in time:\n${child.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** What one keep-alive connection saw. */
interface ConnectionLog {
  /** Responses received, and those received after the signal. */
  answered: number
  afterSignal: number
  /** A request was written and the connection ended or failed before its response. */
  reset: boolean
  /** The last response said `Connection: close` and the server then closed the connection. */
  closedByServer: boolean
  statuses: Array<number>
}

/**
 * One raw HTTP/1.1 keep-alive connection sending `paths` in turn, a request as soon as the
 * previous answer is complete, until the server closes it or `deadline` passes.
 */
const keepAliveClient = (port: number, paths: (i: number) => string, signalled: () => boolean, deadline: number) =>
  new Promise<ConnectionLog>((resolve) => {
    const log: ConnectionLog = { answered: 0, afterSignal: 0, reset: false, closedByServer: false, statuses: [] }
    const socket = connect(port, "127.0.0.1")
    let pending = Buffer.alloc(0)
    let outstanding = false
    let closing = false
    let i = 0
    const send = () => {
      outstanding = true
      socket.write(`GET ${paths(i++)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    }
    socket.on("connect", send)
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      const headEnd = pending.indexOf("\r\n\r\n")
      if (headEnd < 0) return
      const head = pending.subarray(0, headEnd).toString("latin1").toLowerCase()
      const length = Number(/\r\ncontent-length: *(\d+)/.exec(head)?.[1] ?? Number.NaN)
      if (Number.isNaN(length) || pending.length < headEnd + 4 + length) return
      pending = pending.subarray(headEnd + 4 + length)
      outstanding = false
      log.answered++
      if (signalled()) log.afterSignal++
      log.statuses.push(Number(head.slice(9, 12)))
      if (/\r\nconnection: *close/.test(head)) closing = true
      else if (Date.now() > deadline) socket.end()
      else send()
    })
    socket.on("error", () => {
      if (outstanding) log.reset = true
    })
    socket.on("close", () => {
      if (outstanding) log.reset = true
      log.closedByServer = closing
      resolve(log)
    })
  })

describe("process lifecycle", () => {
  it.live("SIGTERM under load: every request on an open connection is answered, the last with Connection: close, none reset", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const child = start("shutdown.fixture.ts", { PORT: String(port), SLOW_MS: "200" })
      try {
        await ready(child, `http://127.0.0.1:${port}`)
        let signalled = false
        // Distinct lists run the route; the others are answered from the cache by the front door.
        const paths = (i: number) =>
          [`/v1/equides?offset=${i}`, "/v1/meta", "/healthz", `/v1/equides/${SIRE}`, "/v1/stats"][i % 5]!
        const connections = Array.from({ length: 24 }, () => keepAliveClient(port, paths, () => signalled, Date.now() + 10_000))
        await new Promise((resolve) => setTimeout(resolve, 500))
        signalled = true
        child.process.kill("SIGTERM")
        const logs = await Promise.all(connections)
        const { code } = await child.exited
        assert.strictEqual(code, 0, child.output())
        assert.deepStrictEqual(logs.filter((log) => log.reset).length, 0, "connections reset with a request unanswered")
        for (const log of logs) {
          assert.isTrue(log.closedByServer, "closed by the server after a Connection: close answer")
          assert.isTrue(log.statuses.every((status) => status === 200), log.statuses.join(","))
        }
        assert.isAbove(logs.reduce((sum, log) => sum + log.afterSignal, 0), 0, "requests answered after the signal")
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)


  it.live("SIGTERM during a slow request: the request completes, new connections are refused, idle connections closed, exit 0", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const child = start("shutdown.fixture.ts", { PORT: String(port), SLOW_MS: "1500" })
      try {
        await ready(child, base)
        // An open connection with nothing asked on it: the server must close it itself rather than wait on it.
        const idle = connect(port, "127.0.0.1")
        let idleClosedByServer = false
        idle.on("end", () => (idleClosedByServer = true))
        idle.on("error", () => undefined)
        await new Promise<void>((resolve) => idle.once("connect", () => resolve()))
        const slow = fetch(`${base}/v1/stats`).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as { readonly total: number }
        }))
        // Signalled once the request is in its handler (the fixture says so), however slow the machine.
        await until(() => child.output().includes("stats handler started"), child)
        child.process.kill("SIGTERM")
        // A new connection (an open one would be answered, see the test above): refused once the
        // listener has closed.
        const refused = () =>
          new Promise<boolean>((resolve) => {
            const socket = connect(port, "127.0.0.1", () => {
              socket.destroy()
              resolve(false)
            })
            socket.on("error", () => resolve(true))
          })
        await until(refused, child)
        // Answered in full: the process waited for it (a request cut by the exit would fail).
        const answer = await slow
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(answer.body.total, FAMILY.length)
        const { code } = await child.exited
        assert.strictEqual(code, 0, child.output())
        assert.isTrue(idleClosedByServer, "the idle connection was closed by the server")
        idle.destroy()
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)

  it.live("SIGTERM during an export: the stream runs to its end within the grace, then the process exits 0", () =>
    Effect.promise(async () => {
      // 3 000 records (~1.4 MB of NDJSON, ~85 units), paced at 60 units a second after a burst of 10: over a second of stream.
      const file = join(dir, "export.jsonl")
      const records = Array.from({ length: 3000 }, (_, i) => ({ ...FAMILY[i % FAMILY.length], id: idN(10_000 + i), nom: `EXPORT ${i}` }))
      writeFileSync(file, records.map((record) => JSON.stringify(record)).join("\n") + "\n")
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const child = start("../main.ts", { PORT: String(port), DATA_FILE: file, RATE_LIMIT_RATE: "60", RATE_LIMIT_BURST: "10", WORKERS: "0" })
      try {
        await ready(child, base)
        let received = 0
        const body = fetch(`${base}/v1/export/equides`).then(async (response) => {
          let text = ""
          const decoder = new TextDecoder()
          for await (const chunk of response.body!) {
            received += chunk.length
            text += decoder.decode(chunk, { stream: true })
          }
          return text
        })
        await until(() => received > 0, child)
        child.process.kill("SIGTERM")
        const text = await body
        assert.strictEqual(text.split("\n").length - 1, records.length)
        const { code } = await child.exited
        assert.strictEqual(code, 0, child.output())
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)

  it.live("SIGINT when idle: exit 0, without waiting for the 10 s grace", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const child = start("../main.ts", { PORT: String(port) })
      try {
        await ready(child, `http://127.0.0.1:${port}`)
        if (process.platform === "linux") {
          // Started with the entry point alone, it runs (same pid) with the server's process settings.
          const pid = child.process.pid ?? 0
          const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
          assert.includeMembers(argv, ["--expose-gc", "--max-semi-space-size=4"])
          const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")
          const tunables = environ.find((entry) => entry.startsWith("GLIBC_TUNABLES=")) ?? ""
          // glibc rewrites the string it parsed in place: the first tunable is what stays readable.
          assert.match(tunables, /^GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1/)
        }
        const sent = Date.now()
        child.process.kill("SIGINT")
        const { at, code } = await child.exited
        assert.strictEqual(code, 0, child.output())
        // Nothing held it: it did not wait out the grace given to requests in flight (server.ts).
        assert.isBelow(at - sent, 10_000)
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)

  it.live("a start that fails says why in one line without a stack trace, and exits 1; an address in use fails before the load", () =>
    Effect.promise(async () => {
      const taken = createServer()
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
      const address = taken.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const badFile = join(dir, "bad.jsonl")
      writeFileSync(badFile, `${JSON.stringify(FAMILY[0])}\n{"id": oops}\n`)
      const cases: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
        [{ PORT: String(port) }, new RegExp(`Démarrage impossible : le port ${port} est déjà utilisé sur 127\\.0\\.0\\.1 \\(PORT\\)$`)],
        [{ DATA_FILE: badFile }, new RegExp(`Démarrage impossible : ${badFile.replaceAll(".", "\\.")}:2: invalid JSON`)]
      ]
      try {
        // A port just seen free, not port + 1: under the whole suite another test's server may hold that one.
        const other = String(await freePort())
        const children = cases.map(([env]) => start("../main.ts", { PORT: other, ...env }))
        for (const [index, child] of children.entries()) {
          const { code } = await child.exited
          const lines = child.output().trim().split("\n")
          const errors = lines.filter((line) => line.includes("ERROR"))
          assert.strictEqual(code, 1, child.output())
          assert.strictEqual(errors.length, 1, child.output())
          assert.match(errors[0]!, cases[index]![1])
          assert.isFalse(lines.some((line) => /^\s+at /.test(line)), `no stack trace:\n${child.output()}`)
          if (index === 0) assert.notInclude(child.output(), "Chargement", "the address is tried before the load")
        }
        // The whole cause at debug level.
        const debug = start("../main.ts", { PORT: String(port), LOG_LEVEL: "debug" })
        assert.strictEqual((await debug.exited).code, 1)
        assert.match(debug.output(), /\n\s+at /)
      } finally {
        taken.close()
      }
    }), 60_000)
})

process.on("exit", () => rmSync(dir, { recursive: true, force: true }))
