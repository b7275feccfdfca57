import { foldValue, slugify } from "@equides/domain"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { BREEDS, LINK_CODES } from "./breeds.ts"
import { EXTRACTION_YEAR, FIRST_YEAR } from "./calendar.ts"
import { WORDS_BY_LETTER, yearLetter } from "./lexicon.ts"
import { horseName, raceTime } from "./names.ts"
import { DISCIPLINES, INDEX_CODES } from "./performances.ts"
import { Rng } from "./prng.ts"

describe("vocabulary", () => {
  it("files every name word under its folded initial", () => {
    for (const [letter, words] of Object.entries(WORDS_BY_LETTER)) {
      for (const word of words) expect(foldValue(word)[0], word).toBe(letter)
    }
  })

  it("follows the French yearly letter (Jappeloup 1975, Baloubet 1989, Quickly 2004, Vagabond 2009)", () => {
    expect([1975, 1989, 2004, 2009, 2010].map(yearLetter)).toEqual(["J", "B", "Q", "V", "A"])
  })

  it("has 13 link codes, 14 disciplines and 19 index codes, and every breed maps to a link code", () => {
    expect(LINK_CODES).toHaveLength(13)
    expect(DISCIPLINES).toHaveLength(14)
    expect(INDEX_CODES).toHaveLength(19)
    for (const breed of BREEDS) expect(LINK_CODES).toContain(breed.code)
    expect(new Set(BREEDS.map((breed) => breed.code)).size).toBe(13)
  })
})

describe("horseName", () => {
  it("is upper case, slugs to something, and starts with the year letter for most French-bred horses", () => {
    const french = BREEDS.findIndex((breed) => breed.french)
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: FIRST_YEAR, max: EXTRACTION_YEAR }), fc.nat(BREEDS.length - 1), (key, year, breed) => {
        const name = horseName(new Rng(key), year, BREEDS[breed])
        expect(name).toBe(name.toUpperCase())
        expect(slugify(name).length).toBeGreaterThan(0)
      })
    )
    let following = 0
    for (let key = 0; key < 2000; key++) {
      if (foldValue(horseName(new Rng(key), 2012, BREEDS[french]))[0] === "C") following++
    }
    expect(following / 2000).toBeGreaterThan(0.7)
  })

  it("now and then gives a name with markup characters (&, <, quotes), rarer than the other pet names", () => {
    const french = BREEDS.findIndex((breed) => breed.french)
    const names = Array.from({ length: 20_000 }, (_, key) => horseName(new Rng(key), 2012, BREEDS[french]))
    const marked = names.filter((name) => /[&<>"]/.test(name))
    for (const character of ["&", "<", "\""]) expect(marked.some((name) => name.includes(character)), character).toBe(true)
    // 1.5 % pet names, of which about a tenth carry markup: about 0.15 %.
    expect(marked.length / names.length).toBeGreaterThan(0.0005)
    expect(marked.length / names.length).toBeLessThan(0.004)
  })

  it("writes race times as the source does", () => {
    for (let key = 0; key < 200; key++) expect(raceTime(new Rng(key))).toMatch(/^1'\d\d"\d \([A-Z]{3}\d[A-Z]\)$/)
  })
})
