import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { PROBES, routeTemplates, templateFinder } from "./routes.ts"

/** Served templates (`:name` segments), drawn from what the router holds. */
const SERVED_SAMPLES = ["/", "/healthz", "/v1/equides", "/v1/equides/:id", "/v1/equides/:id/pedigree", "/v1/referentiels/:dimension", "/explorer/equides/:id", "/explorer/static/:file", "/explorer"]

describe("admission's route table", () => {
  it("knows the probes from their definitions: /healthz and /readyz, nothing else", () => {
    assert.deepStrictEqual([...PROBES].sort(), ["/healthz", "/readyz"])
  })

  it("finds the template the router finds, for any path (served ones with any segment, and any text)", () => {
    const router = routeTemplates()
    const templateOf = templateFinder(router)
    // Segments as a request may spell them: escapes, the router's separators, upper case, empty, long.
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{0,24}$/),
      fc.string({ unit: fc.constantFrom("a", "Z", "0", "%", "2", "5", "?", ";", "#", "/", ":", "é", ".") }),
      fc.stringMatching(/^[a-z]{95,110}$/)
    )
    const served = fc.tuple(fc.constantFrom(...SERVED_SAMPLES), segment, fc.constantFrom("", "/", "//", "?x=1", "/pedigree")).map(([template, value, tail]) =>
      template.replace(/:[a-z]+/, value) + tail
    )
    fc.assert(
      fc.property(fc.oneof(served, fc.string(), fc.constantFrom("/v1/equides/", "/v1/equides//pedigree", "/v1/meta", "//v1/meta")), (path) => {
        assert.strictEqual(templateOf(path), router.find("GET", path)?.handler, path)
      }),
      { numRuns: 2000 }
    )
  })
})
