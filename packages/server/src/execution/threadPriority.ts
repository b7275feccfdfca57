/**
 * Query workers give way to the server's thread (issue 9 item 2). On Linux every thread has its
 * own nice value: a query worker raises its own to 10 when it starts, so that when heavy queries
 * keep every core busy the main thread, which answers probes, 304s, kept responses and lookups, is
 * scheduled first instead of taking turns with them. Elsewhere, or without `/proc`, nothing changes.
 */
import { readlinkSync } from "node:fs"
import { constants, setPriority } from "node:os"

/** The nice value of a query worker's thread (`PRIORITY_BELOW_NORMAL`). */
const QUERY_THREAD_NICE = constants.priority.PRIORITY_BELOW_NORMAL

/** The kernel's id of the calling thread (Linux: `/proc/thread-self` → `<pid>/task/<tid>`). */
export const currentThreadId = (): number | undefined => {
  try {
    const id = Number(readlinkSync("/proc/thread-self").split("/").pop())
    return Number.isSafeInteger(id) && id > 0 ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * Lowers the calling thread's priority (not the process's) to `nice`, where the system lets it: a
 * query worker's by default, the Parquet thread's lower still (`export/parquetThread.ts`).
 */
export const giveWayToMainThread = (nice: number = QUERY_THREAD_NICE): void => {
  const thread = currentThreadId()
  if (thread === undefined) return
  try {
    setPriority(thread, nice)
  } catch {
    // Refused (a container without the right): the thread keeps the process's priority.
  }
}
