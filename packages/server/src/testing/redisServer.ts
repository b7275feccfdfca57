/**
 * A throw-away `redis-server` for tests: on a free loopback port, nothing persisted, stopped with
 * the scope. It can be stopped and started again on the same port (Redis gone, Redis back).
 */
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { freePort } from "./ports.ts"

/** True once something on `port` answers `PING` with `+PONG`. */
const answersPing = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    let reply = ""
    socket.setTimeout(500, () => socket.destroy())
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.on("data", (chunk) => {
      reply += chunk.toString()
      if (reply.includes("\r\n")) socket.end()
    })
    socket.once("close", () => resolve(reply.startsWith("+PONG")))
    socket.once("error", () => resolve(false))
  })

export interface RedisServer {
  readonly port: number
  readonly url: string
  /** Kills the server (SIGKILL: Redis gone, not shut down politely). */
  readonly stop: Effect.Effect<void>
  /** Starts it again on the same port (empty). */
  readonly start: Effect.Effect<void>
  /** Stops the process where it stands (SIGSTOP): connected, silent, until `thaw`. */
  readonly freeze: Effect.Effect<void>
  /** Lets a frozen server run again (SIGCONT). */
  readonly thaw: Effect.Effect<void>
}

export const redisServer = (program: string) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    let child: ChildProcess | undefined
    const start = Effect.promise(async () => {
      child = spawn(program, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
      for (let i = 0; i < 200; i++) {
        if (await answersPing(port)) return
        await sleep(25)
      }
      throw new Error(`redis-server did not answer on port ${port}`)
    })
    const stop = Effect.promise(async () => {
      const running = child
      child = undefined
      if (running === undefined || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once("exit", resolve))
      running.kill("SIGKILL")
      await exited
    })
    const signal = (name: NodeJS.Signals) => Effect.sync(() => void child?.kill(name))
    yield* Effect.acquireRelease(start, () => stop)
    const server: RedisServer = { port, url: `redis://127.0.0.1:${port}`, stop, start, freeze: signal("SIGSTOP"), thaw: signal("SIGCONT") }
    return server
  })
