import { afterEach, describe, expect, it } from "@effect/vitest"
import { requiredProgram, which } from "./programs.ts"

describe("programs the tests need", () => {
  const ci = process.env["CI"]
  afterEach(() => {
    if (ci === undefined) delete process.env["CI"]
    else process.env["CI"] = ci
  })

  it("finds a program on PATH and not one that does not exist", () => {
    expect(which("sh")).toMatch(/\/sh$/)
    expect(which("equides-no-such-program")).toBeUndefined()
  })

  it("skips outside CI and fails in CI when the program is missing", () => {
    process.env["CI"] = "false"
    expect(requiredProgram("equides-no-such-program", "nothing")).toBeUndefined()
    process.env["CI"] = "true"
    expect(() => requiredProgram("equides-no-such-program", "nothing")).toThrow(/required in CI.*apt-get install nothing/)
  })
})
