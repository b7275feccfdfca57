import { describe, expect, it } from "@effect/vitest"
import { missingFlags, withMallocTunables } from "./processSettings.ts"

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
    expect(missingFlags([])).toEqual(["--expose-gc", "--max-semi-space-size=4"])
    expect(missingFlags(["--experimental-strip-types", "--max-semi-space-size=16"])).toEqual(["--expose-gc"])
    expect(missingFlags(["--max-semi-space-size=4", "--expose-gc"])).toEqual([])
  })
})
