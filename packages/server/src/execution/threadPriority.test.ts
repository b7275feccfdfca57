import { describe, expect, it } from "@effect/vitest"
import { buildDataset } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { type ThreadSeen, threadsSeen } from "../testing/threads.ts"
import { QueryPool } from "./QueryPool.ts"
import { currentThreadId } from "./threadPriority.ts"

/** The nice value of each thread of this process, by thread id. */
const niceByThread = (): Map<number, number> => new Map(threadsSeen().map(({ id, nice }) => [id, nice]))

describe("query workers keep the process's priority", () => {
  it.skipIf(!existsSync("/proc/thread-self"))("each query worker's thread runs at the calling thread's nice value", async () => {
    const self = currentThreadId()!
    const before = niceByThread()
    const pool = QueryPool.prepare(2)
    try {
      await pool.attach(shareDataset(buildDataset([{ id: "Z4ogLhlkS2CeUdq0bZ0YFw", nom: "QABALAH MERCURY" }])).share)
      const after = niceByThread()
      const started = [...after].filter(([tid]) => !before.has(tid))
      expect(started.length).toBeGreaterThanOrEqual(2)
      expect(started.map(([, nice]) => nice)).toEqual(started.map(() => before.get(self)))
      expect(after.get(self)).toBe(before.get(self))
    } finally {
      await pool.close()
    }
  })
})

describe("V8's helper threads give way to the server's thread", () => {
  it.skipIf(!existsSync("/proc/thread-self"))("lowers every V8Worker thread of its process to nice 19 and no other thread", () => {
    // In a process of its own: lowered here, the test runner's own compile jobs would be.
    const script = `
      import { threadsSeen } from ${JSON.stringify(new URL("../testing/threads.ts", import.meta.url).href)}
      import { lowerV8Helpers } from ${JSON.stringify(new URL("./threadPriority.ts", import.meta.url).href)}
      const before = threadsSeen()
      const lowered = lowerV8Helpers()
      console.log(JSON.stringify({ before, lowered, after: threadsSeen() }))
    `
    const child = spawnSync(process.execPath, ["--experimental-strip-types", "--disable-warning=ExperimentalWarning", "--input-type=module", "-e", script], { encoding: "utf8" })
    expect(child.stderr).toBe("")
    const { before, lowered, after } = JSON.parse(child.stdout) as { before: Array<ThreadSeen>; lowered: number; after: Array<ThreadSeen> }
    const helpers = after.filter(({ name }) => name === "V8Worker")
    expect(helpers.length).toBeGreaterThan(0)
    expect(lowered).toBe(helpers.length)
    expect(helpers.every(({ nice }) => nice === 19)).toBe(true)
    expect(before.filter(({ name }) => name === "V8Worker").every(({ nice }) => nice === 0)).toBe(true)
    expect(after.filter(({ name }) => name !== "V8Worker").every(({ nice }) => nice === 0)).toBe(true)
  })
})
