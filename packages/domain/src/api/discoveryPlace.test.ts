import { describe, expect, it } from "@effect/vitest"
import { placed, servedPath, templateOf } from "./discoveryPlace.ts"

const entry = (key: string, after?: string) => ({ key, path: `/${key}`, template: undefined, after })

describe("discoveryPlace", () => {
  it("writes a route's path and template as RFC 6570 does", () => {
    expect(servedPath("/v1/equides/:id/pedigree")).toBe("/v1/equides/{id}/pedigree")
    expect(servedPath("/v1/referentiels/:dimension")).toBe("/v1/referentiels/{dimension}")
    expect(templateOf("/v1/stats", [])).toBeUndefined()
    expect(templateOf("/v1/equides/{id}", [])).toBe("/v1/equides/{id}")
    expect(templateOf("/v1/search", ["q", "limite"])).toBe("/v1/search{?q,limite}")
  })

  it("keeps the Api's order, but for a route placed after another key", () => {
    const order = placed([entry("a"), entry("b"), entry("z", "a"), entry("c"), entry("y", "z")]).map((e) => e.key)
    expect(order).toEqual(["a", "z", "y", "b", "c"])
    expect(() => placed([entry("a"), entry("z", "nowhere")])).toThrow(/nowhere/)
  })
})
