/**
 * The process: SIGTERM/SIGINT stop accepting, let the request in flight finish, and exit 0; an
 * invalid configuration stops the start with a message naming the variable and a non-zero code.
 * Real child processes (`main.ts`, and `shutdown.fixture.ts`: the same server with slow handlers).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FAMILY } from "./testing.ts"

const dir = mkdtempSync(join(tmpdir(), "equides-shutdown-"))
const DATA_FILE = join(dir, "family.jsonl")
writeFileSync(DATA_FILE, FAMILY.map((record) => JSON.stringify(record)).join("\n") + "\n")

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

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

describe("process lifecycle", () => {
  it.live("SIGTERM during a slow request: the request completes, new connections are refused, exit 0", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const child = start("shutdown.fixture.ts", { PORT: String(port), SLOW_MS: "1500" })
      try {
        await ready(child, base)
        const started = Date.now()
        const slow = fetch(`${base}/v1/stats`).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as { readonly total: number }
        }))
        await new Promise((resolve) => setTimeout(resolve, 300))
        child.process.kill("SIGTERM")
        await new Promise((resolve) => setTimeout(resolve, 300))
        const refused = await fetch(`${base}/healthz`).then(() => false, () => true)
        assert.isTrue(refused, "the listener is closed")
        const answer = await slow
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(answer.body.total, FAMILY.length)
        const { at, code } = await child.exited
        assert.strictEqual(code, 0, child.output())
        assert.isAtLeast(at - started, 1400, "the process waited for the request")
        // Not held by the keep-alive connections of the client.
        assert.isBelow(at - started, 5000)
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)

  it.live("SIGINT when idle: exit 0 at once", () =>
    Effect.promise(async () => {
      const port = await freePort()
      const child = start("main.ts", { PORT: String(port) })
      try {
        await ready(child, `http://127.0.0.1:${port}`)
        const sent = Date.now()
        child.process.kill("SIGINT")
        const { at, code } = await child.exited
        assert.strictEqual(code, 0, child.output())
        assert.isBelow(at - sent, 3000)
      } finally {
        child.process.kill("SIGKILL")
      }
    }), 30_000)

  it.live("an invalid setting stops the start, naming the variable, with a non-zero code", () =>
    Effect.promise(async () => {
      const child = start("main.ts", { PORT: String(await freePort()), MAX_CONCURRENCY: "beaucoup" })
      const { code } = await child.exited
      assert.notStrictEqual(code, 0)
      assert.include(child.output(), "MAX_CONCURRENCY")
    }), 30_000)
})

process.on("exit", () => rmSync(dir, { recursive: true, force: true }))
