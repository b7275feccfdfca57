import { describe, expect, it } from "@effect/vitest"
import { buildDataset } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { QueryPool } from "./QueryPool.ts"
import { currentThreadId } from "./threadPriority.ts"

/** The nice value of each thread of this process, by thread id (`/proc/self/task/<tid>/stat`, field 19). */
const niceByThread = (): Map<number, number> =>
  new Map(readdirSync("/proc/self/task").flatMap((tid): Array<[number, number]> => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8")
      return [[Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])]]
    } catch {
      return [] // a thread that ended meanwhile
    }
  }))

describe("query workers give way to the server's thread", () => {
  it.skipIf(!existsSync("/proc/thread-self"))("each query worker's thread runs at nice 10, the calling thread unchanged", async () => {
    const self = currentThreadId()!
    const before = niceByThread()
    const pool = QueryPool.prepare(2)
    try {
      await pool.attach(shareDataset(buildDataset([{ id: "Z4ogLhlkS2CeUdq0bZ0YFw", nom: "QABALAH MERCURY" }])).share)
      const after = niceByThread()
      const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === 10)
      expect(lowered.length).toBe(2)
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
      import { readdirSync, readFileSync } from "node:fs"
      import { lowerV8Helpers } from ${JSON.stringify(new URL("./threadPriority.ts", import.meta.url).href)}
      const threads = () => readdirSync("/proc/self/task").map((tid) => {
        const stat = readFileSync("/proc/self/task/" + tid + "/stat", "utf8")
        return [readFileSync("/proc/self/task/" + tid + "/comm", "utf8").trim(), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])]
      })
      const before = threads()
      const lowered = lowerV8Helpers()
      console.log(JSON.stringify({ before, lowered, after: threads() }))
    `
    const child = spawnSync(process.execPath, ["--experimental-strip-types", "--disable-warning=ExperimentalWarning", "--input-type=module", "-e", script], { encoding: "utf8" })
    expect(child.stderr).toBe("")
    const { before, lowered, after } = JSON.parse(child.stdout) as { before: Array<[string, number]>; lowered: number; after: Array<[string, number]> }
    const helpers = after.filter(([name]) => name === "V8Worker")
    expect(helpers.length).toBeGreaterThan(0)
    expect(lowered).toBe(helpers.length)
    expect(helpers.every(([, nice]) => nice === 19)).toBe(true)
    expect(before.filter(([name]) => name === "V8Worker").every(([, nice]) => nice === 0)).toBe(true)
    expect(after.filter(([name]) => name !== "V8Worker").every(([, nice]) => nice === 0)).toBe(true)
  })
})
