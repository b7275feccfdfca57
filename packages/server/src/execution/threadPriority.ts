/**
 * V8's own threads give way to the server's thread and the query workers (issue 9 item 2, issue 24
 * item 6). On Linux every thread has its own nice value: the server raises V8's helper threads' to
 * 19 once it is ready, so that when they keep a core busy the main thread, which answers probes,
 * 304s, kept responses and lookups, and the query workers are scheduled first instead of taking
 * turns with them. Elsewhere, or without `/proc`, nothing changes.
 *
 * The query workers keep the process's priority. At nice 10 (until 28 November) a worker handing
 * back its answer woke the server's thread while it still held its port's lock (Node's
 * `MessagePort` wakes the receiver before it lets go): woken on the worker's core, the server's
 * thread took it, found the lock held and slept again; the worker, runnable again but at nice 10
 * and just off the core, waited behind one of V8's helpers (nice 19) for the helper's whole time
 * slice (EEVDF, 3 ms), with the answer made. `perf sched` showed it on consanguinity's first
 * request after a scrape: 3.2 and 4.9 ms between the worker's answer and the server's thread
 * reading it, for 0.25 ms of execution; such first requests took over 3 ms 11 times in 16 at
 * nice 10, 4 in 16 at nice 0 (docs/decisions.md).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"
import { constants, setPriority } from "node:os"

/** The nice value of V8's helper threads (`PRIORITY_LOW`, the lowest). */
const V8_HELPER_NICE = constants.priority.PRIORITY_LOW

/** The name Node gives the threads of V8's platform, shared by every isolate of the process. */
const V8_HELPER_NAME = "V8Worker"

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
 * Lowers the calling thread's priority (not the process's) to `nice`, where the system lets it:
 * the Parquet thread's (`export/parquetThread.ts`).
 */
export const giveWayToMainThread = (nice: number): void => {
  const thread = currentThreadId()
  if (thread === undefined) return
  try {
    setPriority(thread, nice)
  } catch {
    // Refused (a container without the right): the thread keeps the process's priority.
  }
}

/**
 * Lowers to nice 19 the priority of V8's helper threads (`V8Worker`), where they run the compile
 * jobs of every isolate of the process (Maglev, Turbofan) and the collector's concurrent work;
 * returns how many it lowered. At nice 0 a compile job started by the first requests after ready
 * kept the main thread off its core for a whole time slice while the other core served the client:
 * 3.2 and 3.5 ms with a lookup waiting (`perf` sampling both cores: the main thread runnable behind
 * a Maglev and a Turbofan job). The server's thread families (records, pedigrees, progeny; three
 * passes of each on three fresh servers, 27 sequences a batch) failed the first-use rule in 14 of
 * 54 sequences with the helpers at nice 0, 8 at nice 10, 5 at nice 19; lowered at ready as the
 * server does, 6 of 54 against 11 of 54 unlowered in alternated batches. At 19 they run on what
 * the main thread and the query workers leave.
 */
export const lowerV8Helpers = (): number => {
  let lowered = 0
  let threads: Array<string>
  try {
    threads = readdirSync("/proc/self/task")
  } catch {
    return 0 // no /proc: nothing to name a thread by
  }
  for (const thread of threads) {
    try {
      if (readFileSync(`/proc/self/task/${thread}/comm`, "utf8").trim() !== V8_HELPER_NAME) continue
      setPriority(Number(thread), V8_HELPER_NICE)
      lowered++
    } catch {
      // Ended meanwhile, or refused (a container without the right): it keeps its priority.
    }
  }
  return lowered
}
