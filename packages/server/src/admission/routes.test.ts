import { assert, describe, it } from "@effect/vitest"
import { PROBES } from "./routes.ts"

describe("admission's route table", () => {
  it("knows the probes from their definitions: /healthz and /readyz, nothing else", () => {
    assert.deepStrictEqual([...PROBES].sort(), ["/healthz", "/readyz"])
  })
})
