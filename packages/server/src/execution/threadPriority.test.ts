import { describe, expect, it } from "@effect/vitest"
import { buildDataset } from "@equides/domain"
import { shareDataset } from "@equides/ingest/shared"
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
