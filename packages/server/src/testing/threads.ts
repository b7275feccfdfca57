/**
 * The threads of the calling process as Linux lists them (`/proc/self/task`): for the tests of the
 * threads' priorities (`execution/threadPriority.ts`), in this process or in a child that imports it.
 */
import { readdirSync, readFileSync } from "node:fs"

export interface ThreadSeen {
  readonly id: number
  /** The thread's name (`comm`): `MainThread`, `V8Worker`, `WorkerThread`… */
  readonly name: string
  /** Its nice value (`stat`, field 19). */
  readonly nice: number
}

/** This process's threads now (a thread that ends while they are read is left out). */
export const threadsSeen = (): Array<ThreadSeen> =>
  readdirSync("/proc/self/task").flatMap((id): Array<ThreadSeen> => {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8")
      const name = readFileSync(`/proc/self/task/${id}/comm`, "utf8").trim()
      return [{ id: Number(id), name, nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) }]
    } catch {
      return []
    }
  })
