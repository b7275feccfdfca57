import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { foldValue, foldWords, isSlugOf, slugify } from "./fold.ts"

const nameLike = fc.string({
  unit: fc.constantFrom("A", "b", "É", "é", "z", "0", "9", " ", "-", "'", "_", "(", "ç", "Ø", "漢")
})

describe("fold", () => {
  it("folds case, accents and punctuation into words", () => {
    expect(foldWords("  L'Été d'ANGÉLIQUE (FR) ")).toEqual(["L", "ETE", "D", "ANGELIQUE", "FR"])
    expect(foldValue("Selle Français")).toBe(foldValue("SELLE-FRANCAIS"))
  })

  it("slugifies like the registry", () => {
    expect(slugify("DALIA AL SHAHANIA")).toBe("dalia-al-shahania")
    expect(slugify("  L'ÉTÉ -- D'OR  ")).toBe("l-ete-d-or")
  })

  it("isSlugOf agrees with slugify on every name and slug", () => {
    fc.assert(
      fc.property(nameLike, nameLike, (name, other) => {
        expect(isSlugOf(slugify(name), name)).toBe(true)
        expect(isSlugOf(slugify(other), name)).toBe(slugify(other) === slugify(name))
        expect(isSlugOf(slugify(name) + "-x", name)).toBe(false)
      }),
      { numRuns: 2000 }
    )
  })
})
