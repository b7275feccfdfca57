/**
 * The settings the server's process runs with, in this one place: V8 flags and the C allocator's
 * tunables can only be given when a process starts, so a process started without them replaces
 * itself (`process.execve`: same pid, same arguments, same environment) with one started with
 * them. Whoever starts the server (`npm start`, the bench, a cluster script, a container) gives
 * nothing more than the entry point.
 *
 * - `--max-semi-space-size=4`: V8 let the young generation grow to 32 MiB and kept it (memory
 *   target, `docs/decisions.md`).
 * - `--expose-gc`: the server collects once after a load (`server.ts`), and each query worker its
 *   young generation after each answer (`serveQueries.ts`).
 * - `--retain-maps-for-n-gc=1000`: V8 throws away the code it optimised for object shapes (maps)
 *   no live object has any more once 2 full collections (its default) have passed: the shapes the
 *   warm-up's requests made (a route's decoded query, its intermediate objects) die with them, so
 *   a route whose first request came a few collections after ready ran in the interpreter again
 *   while V8 recompiled (issue 24 item 6: the ranking of parents 7–12 ms instead of 2–3 after 3
 *   collections, "embedded weak objects cleared" in `--trace-deopt`). Only shapes embedded in
 *   optimised code are retained so, a bounded set: their memory is negligible.
 * - `--no-parallel-scavenge`: a young collection is done by the collecting thread alone instead of
 *   being shared out with V8's helper threads. Under the record family (the server's thread
 *   allocating 7.9 KB a lookup, a young collection every ~450 lookups, about 3 KB surviving each)
 *   there is nothing to share, and on a machine whose cores the load keeps busy the collecting
 *   thread waited for helpers that did not get a core: 0.2 ms instead of 1.3 ms for the median
 *   young collection, 81 instead of 322 ms of pauses per 100 000 lookups, at no memory cost
 *   (issue 24 item 4, `docs/decisions.md`).
 * - `--no-allocation-site-pretenuring`: V8 learns which allocation sites' objects survive and
 *   allocates them in the old generation from then on. On the server's thread the answer path's
 *   objects that hold a worker's body (its buffer outside the heap) were so pretenured, so each
 *   body stayed until a full collection: under `/v1/stats/genetique` (17.6 KB bodies) 5–7 full
 *   collections of the main thread per 3 000 requests instead of 1, and a p99 of 2.4–2.8 ms
 *   instead of 1.7–1.8 (issue 27's ≤ 2 ms; the workers' heavy routes unchanged, `docs/decisions.md`).
 * - `--heap-growing-percent=100`: after a full collection V8 sets the next one at twice what is
 *   live instead of at its own factor, which it kept near its 1.1 minimum on the server's thread
 *   (the next one at 56 MB for 49 MB live): under the explorer's pages (20 KB bodies relayed from
 *   the workers, 3 000 a second) the old generation reached it every 0.2–0.6 s, 14–30 full
 *   collections in 9 s with pauses and steps of 5–17 ms, each a slow probe. With it 2–7, and the
 *   probe p99 under those pages 10–12 → 3–6 ms on the bench; resident after 3 minutes of mixed
 *   load 33–40 MiB more (the old generations of 3 threads grow further before a collection), the
 *   same 5 s after ready (issue 24 item 4, `docs/decisions.md`).
 * - glibc's malloc: an array of 128 KiB or more (a bitset over the rows is 556 KiB at 4.45 M) is
 *   by default mapped fresh and unmapped when freed, so every query that builds one pays its
 *   first-touch page faults again (136 faults, about 1.8 ms here, for one bitset). Below
 *   4 MiB it now comes from the heap and is reused, and the heap gives memory back to the system
 *   past 8 MiB free at its top.
 * - and its memory in transparent huge pages where the system offers them on request
 *   (`hugetlb=1`: `madvise`, as Debian sets it): the Dataset's one buffer (776 MB at 4.45 M) is
 *   touched in 2 MiB pages instead of 4 KiB ones, 512 times fewer faults when the snapshot is
 *   read, and its columns read at random miss the TLB far less often.
 *
 * A value the environment already sets is kept.
 */
const V8_FLAGS = [
  "--expose-gc",
  "--max-semi-space-size=4",
  "--retain-maps-for-n-gc=1000",
  "--no-parallel-scavenge",
  "--no-allocation-site-pretenuring",
  "--heap-growing-percent=100"
] as const

const MALLOC_TUNABLES: ReadonlyArray<readonly [string, string]> = [
  ["glibc.malloc.hugetlb", "1"],
  ["glibc.malloc.mmap_threshold", String(4 * 1024 * 1024)],
  ["glibc.malloc.trim_threshold", String(8 * 1024 * 1024)]
]

/** `GLIBC_TUNABLES` with ours added, those already set kept as they are. */
export const withMallocTunables = (current: string | undefined): string => {
  const set = (current ?? "").split(":").filter((entry) => entry !== "")
  const named = new Set(set.map((entry) => entry.split("=")[0]))
  return [...set, ...MALLOC_TUNABLES.filter(([name]) => !named.has(name)).map(([name, value]) => `${name}=${value}`)].join(":")
}

/** The V8 flags missing from `execArgv`, by name (a value given explicitly is kept). */
export const missingFlags = (execArgv: ReadonlyArray<string>): Array<string> =>
  V8_FLAGS.filter((flag) => !execArgv.some((arg) => arg.split("=")[0] === flag.split("=")[0]))

/** What `ensureProcessSettings` reads of the process and calls on it (`process` itself; tests give another). */
export interface Relaunchable {
  readonly platform: NodeJS.Platform
  readonly execPath: string
  readonly execArgv: ReadonlyArray<string>
  readonly argv: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  readonly execve?: ((file: string, args: Array<string>, env: NodeJS.ProcessEnv) => never) | undefined
}

/**
 * Replaces this process with one started with the settings when any is missing; returns when
 * they are all there (`undefined`), or where a process cannot replace itself (not Linux, `execve`
 * refused) with the warning to log: the server then runs as it was started, without the memory
 * and latency the settings buy, which an operator must be told.
 */
export const ensureProcessSettings = (proc: Relaunchable = process): string | undefined => {
  const flags = missingFlags(proc.execArgv)
  const tunables = proc.platform === "linux" ? withMallocTunables(proc.env["GLIBC_TUNABLES"]) : proc.env["GLIBC_TUNABLES"]
  if (flags.length === 0 && tunables === proc.env["GLIBC_TUNABLES"]) return undefined
  const missing = [...flags, ...(tunables === proc.env["GLIBC_TUNABLES"] ? [] : [`GLIBC_TUNABLES=${tunables}`])].join(" ")
  const warning = (why: string) =>
    `Relance avec les réglages du serveur impossible (${why}) : le serveur tourne sans ${missing}`
  if (typeof proc.execve !== "function") return warning("process.execve absent")
  try {
    proc.execve(
      proc.execPath,
      [proc.execPath, ...flags, ...proc.execArgv, ...proc.argv.slice(1)],
      tunables === undefined ? proc.env : { ...proc.env, GLIBC_TUNABLES: tunables }
    )
  } catch (error) {
    // Refused (a sandbox without execve): run as started, with Node's defaults.
    return warning(error instanceof Error ? error.message : String(error))
  }
  return undefined
}
