import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { foldUtf8, foldValue, foldWords, isSlugOf, isSlugOfUtf8, SLUG_BYTES_PER_NAME_BYTE, slugify, slugUtf8 } from "./fold.ts"

const nameLike = fc.string({
  unit: fc.oneof(
    fc.constantFrom("A", "b", "É", "é", "z", "0", "9", " ", "-", "'", "_", "(", "ç", "Ø", "漢", "ß", "Œ", "ŉ", "ǅ", "\u0301", "İ", "K", "Å", "Σ"),
    // Every character of the fast paths' tables (below U+0370) and a little beyond.
    fc.integer({ min: 0, max: 0x3ff }).map((code) => String.fromCharCode(code))
  )
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

  it("foldValue is the folded words joined by single spaces", () => {
    fc.assert(
      fc.property(nameLike, (name) => {
        expect(foldValue(name)).toBe(foldWords(name).join(" "))
      }),
      { numRuns: 2000 }
    )
    expect(foldValue("L'ÉTÉ  d'or")).toBe("L ETE D OR")
    expect(foldValue("JAPPELOUP DE LUZE")).toBe("JAPPELOUP DE LUZE")
  })

  it("foldUtf8 folds UTF-8 bytes like foldValue, or declines", () => {
    let folded = 0
    fc.assert(
      fc.property(nameLike, (name) => {
        const bytes = new TextEncoder().encode(name)
        const out = new Uint8Array(bytes.length * 2)
        const length = foldUtf8(bytes, 0, bytes.length, out)
        if (length >= 0) {
          folded++
          expect(new TextDecoder().decode(out.subarray(0, length))).toBe(foldValue(name))
        }
      }),
      { numRuns: 2000 }
    )
    expect(folded).toBeGreaterThan(100)
  })

  it("isSlugOfUtf8 agrees with isSlugOf on UTF-8 bytes, or declines", () => {
    let answered = 0
    fc.assert(
      fc.property(nameLike, nameLike, fc.boolean(), (name, other, own) => {
        const slug = own ? slugify(name) : slugify(other) + (other.length % 3 === 0 ? "-x" : "")
        const bytes = new TextEncoder().encode(slug + name)
        const slugLength = new TextEncoder().encode(slug).length
        const answer = isSlugOfUtf8(bytes, 0, slugLength, slugLength, bytes.length)
        if (answer !== undefined) {
          answered++
          expect(answer).toBe(isSlugOf(slug, name))
        }
      }),
      { numRuns: 2000 }
    )
    expect(answered).toBeGreaterThan(500)
  })

  it("slugUtf8 writes slugify's slug of UTF-8 bytes where it is asked, or declines", () => {
    let written = 0
    fc.assert(
      fc.property(nameLike, fc.nat(8), (name, at) => {
        const bytes = new TextEncoder().encode(name)
        const out = new Uint8Array(at + bytes.length * SLUG_BYTES_PER_NAME_BYTE).fill(33)
        const end = slugUtf8(bytes, 0, bytes.length, out, at)
        if (end >= 0) {
          written++
          expect(new TextDecoder().decode(out.subarray(at, end))).toBe(slugify(name))
          expect(out.subarray(0, at).every((byte) => byte === 33)).toBe(true)
        }
      }),
      { numRuns: 2000 }
    )
    expect(written).toBeGreaterThan(500)
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
