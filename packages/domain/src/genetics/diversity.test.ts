import { describe, expect, it } from "@effect/vitest"
import { type Diversity, diversityHeld, heldDiversity } from "./diversity.ts"

describe("a diversity as a Dataset holds it", () => {
  it("reads back what was held, nulls included", () => {
    const full: Diversity = {
      founders: 7,
      ancestors: 49 / 6,
      retained: 3,
      explained: 0.75,
      interval: 9.5,
      major: [{ node: 4, contribution: 2 / 7 }, { node: 1, contribution: 3 / 28 }]
    }
    const empty: Diversity = { founders: 2, ancestors: null, retained: 0, explained: 0, interval: null, major: [] }
    expect(diversityHeld(heldDiversity(full))).toEqual(full)
    expect(diversityHeld(heldDiversity(empty))).toEqual(empty)
    // No reference population: nothing held, nothing read.
    expect(heldDiversity(null).figures.length).toBe(0)
    expect(diversityHeld(heldDiversity(null))).toBeNull()
  })
})
