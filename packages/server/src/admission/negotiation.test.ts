import { describe, expect, it } from "@effect/vitest"
import { prefersHtml } from "./negotiation.ts"

describe("prefersHtml", () => {
  it("is true only when text/html gets a strictly higher quality than application/json", () => {
    expect(prefersHtml("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(true)
    expect(prefersHtml("text/html")).toBe(true)
    expect(prefersHtml("text/*, application/json;q=0.5")).toBe(true)
    expect(prefersHtml(undefined)).toBe(false)
    expect(prefersHtml("")).toBe(false)
    expect(prefersHtml("*/*")).toBe(false)
    expect(prefersHtml("application/json")).toBe(false)
    expect(prefersHtml("text/html, application/json")).toBe(false)
    expect(prefersHtml("text/html;q=0.5, application/json")).toBe(false)
    expect(prefersHtml("application/json;q=0, text/html;q=0.1")).toBe(true)
    expect(prefersHtml("garbage")).toBe(false)
  })
})
