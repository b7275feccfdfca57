import { describe, expect, it } from "@effect/vitest"
import { ensureProcessSettings, missingFlags, type Relaunchable, withMallocTunables } from "./processSettings.ts"

const TUNED = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=8388608"

/** A Linux process started with `execArgv` and `env`, whose `execve` does what `relaunch` does. */
const started = (execArgv: Array<string>, env: NodeJS.ProcessEnv, relaunch?: (args: Array<string>, env: NodeJS.ProcessEnv) => void) => {
  const calls: Array<{ args: Array<string>; env: NodeJS.ProcessEnv }> = []
  const proc: Relaunchable = {
    platform: "linux",
    execPath: "/usr/bin/node",
    execArgv,
    argv: ["/usr/bin/node", "main.ts"],
    env,
    execve: relaunch === undefined ? undefined : ((_file: string, args: Array<string>, env: NodeJS.ProcessEnv) => {
      calls.push({ args, env })
      relaunch(args, env)
    }) as Relaunchable["execve"]
  }
  return { proc, calls }
}

describe("process settings", () => {
  it("adds the allocator tunables, keeping those the environment already sets", () => {
    const ours = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=8388608"
    expect(withMallocTunables(undefined)).toBe(ours)
    expect(withMallocTunables("")).toBe(ours)
    expect(withMallocTunables("glibc.malloc.arena_max=2")).toBe(`glibc.malloc.arena_max=2:${ours}`)
    expect(withMallocTunables("glibc.malloc.mmap_threshold=65536")).toBe(
      "glibc.malloc.mmap_threshold=65536:glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=8388608"
    )
    // Once set, nothing changes: a process started with them does not replace itself again.
    const set = withMallocTunables(undefined)
    expect(withMallocTunables(set)).toBe(set)
  })

  it("names the V8 flags a process was started without, a value given explicitly kept", () => {
    expect(missingFlags([])).toEqual(["--expose-gc", "--max-semi-space-size=4", "--retain-maps-for-n-gc=1000", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100"])
    expect(missingFlags(["--experimental-strip-types", "--max-semi-space-size=16", "--retain-maps-for-n-gc=1000", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100"])).toEqual(["--expose-gc"])
    expect(missingFlags(["--max-semi-space-size=4", "--retain-maps-for-n-gc=5", "--expose-gc"])).toEqual(["--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100"])
    expect(missingFlags(["--max-semi-space-size=4", "--retain-maps-for-n-gc=5", "--expose-gc", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=50"])).toEqual([])
  })

  it("relaunches a process started without its settings, with them, and has nothing to say", () => {
    const { proc, calls } = started(["--max-semi-space-size=4"], { HOME: "/root" }, () => undefined)
    expect(ensureProcessSettings(proc)).toBeUndefined()
    expect(calls).toEqual([{
      args: ["/usr/bin/node", "--expose-gc", "--retain-maps-for-n-gc=1000", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100", "--max-semi-space-size=4", "main.ts"],
      env: { HOME: "/root", GLIBC_TUNABLES: TUNED }
    }])
  })

  it("leaves a process started with its settings as it is", () => {
    const { proc, calls } = started(["--expose-gc", "--max-semi-space-size=4", "--retain-maps-for-n-gc=1000", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100"], { GLIBC_TUNABLES: TUNED }, () => undefined)
    expect(ensureProcessSettings(proc)).toBeUndefined()
    expect(calls).toEqual([])
  })

  it("says what the server runs without when the relaunch is refused or impossible", () => {
    const refused = started([], { GLIBC_TUNABLES: TUNED }, () => {
      throw new Error("EPERM: operation not permitted, execve")
    })
    expect(ensureProcessSettings(refused.proc)).toBe(
      "Relance avec les réglages du serveur impossible (EPERM: operation not permitted, execve) : le serveur tourne sans --expose-gc --max-semi-space-size=4 --retain-maps-for-n-gc=1000 --no-parallel-scavenge --no-allocation-site-pretenuring --heap-growing-percent=100"
    )
    const without = started(["--expose-gc", "--max-semi-space-size=4", "--retain-maps-for-n-gc=1000", "--no-parallel-scavenge", "--no-allocation-site-pretenuring", "--heap-growing-percent=100"], {})
    expect(ensureProcessSettings(without.proc)).toBe(
      `Relance avec les réglages du serveur impossible (process.execve absent) : le serveur tourne sans GLIBC_TUNABLES=${TUNED}`
    )
  })
})
