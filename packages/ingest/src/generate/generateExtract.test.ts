import { isCanonicalId, slugify } from "@equides/domain"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { LINK_CODES } from "./breeds.ts"
import { generateExtract, generatePopulation } from "./generateExtract.ts"
import { DISCIPLINE_CODES, DISCIPLINES, INDEX_CODES } from "./performances.ts"
import type { RawLine } from "./rawLine.ts"
import { serializeExtract } from "./writeExtract.ts"

const textOf = (seed: number, count: number): string => [...serializeExtract(generateExtract({ seed, count }), "jsonl")].join("")

describe("determinism", () => {
  it("gives the same lines for the same seed and count, other lines for another seed", () => {
    const a = textOf(11, 3000)
    expect(textOf(11, 3000)).toBe(a)
    expect(textOf(12, 3000)).not.toBe(a)
    expect(a.split("\n")).toHaveLength(3001)
  })

  it("holds for any seed and size, and every size gives readable lines without duplicate ids", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 400 }), (seed, count) => {
        const lines = [...generateExtract({ seed, count })]
        expect(lines).toHaveLength(count)
        expect(JSON.stringify([...generateExtract({ seed, count })])).toBe(JSON.stringify(lines))
        const ids = lines.map((line) => line.id)
        expect(new Set(ids).size).toBe(count)
      }),
      { numRuns: 25 }
    )
  })

  it("rejects seeds and counts it cannot honour", () => {
    expect(() => generateExtract({ seed: -1, count: 1 }).next()).toThrow(RangeError)
    expect(() => generateExtract({ seed: 2 ** 32, count: 1 }).next()).toThrow(RangeError)
    expect(() => generateExtract({ seed: 1, count: 1.5 }).next()).toThrow(RangeError)
  })
})

// One 20 000-line extract (about a second) shared by the statistical checks below.
const COUNT = 20_000
const lines: ReadonlyArray<RawLine> = [...generateExtract({ seed: 7, count: COUNT })]

type Link = { readonly id?: unknown; readonly nom?: unknown; readonly race?: unknown; readonly pays?: unknown }
const linkOf = (line: RawLine, key: string): Link | undefined => {
  const value = line[key]
  return typeof value === "object" && value !== null ? value as Link : undefined
}
const LINK_KEYS = ["pere", "mere", "pere_de_mere"] as const
const readable = (id: unknown): id is string => typeof id === "string" && isCanonicalId(id)
const byId = new Map<string, RawLine>()
const position = new Map<string, number>()
lines.forEach((line, k) => {
  if (readable(line.id)) {
    byId.set(line.id, line)
    position.set(line.id, k)
  }
})
const share = (predicate: (line: RawLine) => boolean): number => lines.filter(predicate).length / COUNT
/** The breed label, when the line carries one rather than nothing or a race time. */
const labelOf = (line: RawLine): string | undefined =>
  typeof line.race === "string" && line.race !== "" && !line.race.includes("'") ? line.race : undefined
const plausibleYear = (year: unknown): year is number => typeof year === "number" && year >= 1900 && year <= 2025

describe("a 20 000-line extract", () => {
  it("has the registry's sex ratio", () => {
    expect(share((line) => line.sexe === "Femelle")).toBeCloseTo(0.55, 1)
    expect(share((line) => line.sexe === "Male")).toBeCloseTo(0.28, 1)
    expect(share((line) => line.sexe === "Hongre")).toBeCloseTo(0.17, 1)
    const undetermined = lines.filter((line) => line.sexe === "Indeter").length
    expect(undetermined).toBeGreaterThanOrEqual(1)
    expect(undetermined).toBeLessThanOrEqual(3)
  })

  it("has 72.8 % of records with a parent and 24.9 % with performances", () => {
    expect(Math.abs(share((line) => linkOf(line, "pere") !== undefined || linkOf(line, "mere") !== undefined) - 0.728))
      .toBeLessThan(0.015)
    expect(Math.abs(share((line) => Array.isArray(line.performances)) - 0.249)).toBeLessThan(0.015)
  })

  it("has no duplicate ids, and a few unreadable ones", () => {
    const readableIds = lines.filter((line) => readable(line.id))
    expect(byId.size).toBe(readableIds.length)
    const unreadable = COUNT - byId.size
    expect(unreadable).toBeGreaterThanOrEqual(3)
    expect(unreadable).toBeLessThan(20)
    expect(lines.every((line) => typeof line.id === "string" && line.id.length > 0)).toBe(true)
  })

  it("gives parents of the right sex, born at least 3 years before their products", () => {
    const wrong: Array<string> = []
    let checked = 0
    for (const line of lines) {
      for (const [key, sex] of [["pere", "Male"], ["mere", "Femelle"]] as const) {
        const id = linkOf(line, key)?.id
        const parent = readable(id) ? byId.get(id) : undefined
        if (parent === undefined) continue
        if (parent.sexe !== sex) wrong.push(`${line.id}: ${key} is ${parent.sexe}`)
        if (plausibleYear(line.annee_naissance) && plausibleYear(parent.annee_naissance)) {
          if (parent.annee_naissance > line.annee_naissance - 3) wrong.push(`${line.id}: ${key} born too late`)
          checked++
        }
      }
    }
    expect(wrong).toEqual([])
    expect(checked).toBeGreaterThan(COUNT / 2)
  })

  it("names each parent on its links as its own record does, with a clean link code", () => {
    const wrong: Array<string> = []
    for (const line of lines) {
      for (const key of LINK_KEYS) {
        const link = linkOf(line, key)
        if (link === undefined) continue
        if (!(LINK_CODES as ReadonlyArray<unknown>).includes(link.race)) wrong.push(`${line.id}: ${key} race ${link.race}`)
        const parent = readable(link.id) ? byId.get(link.id) : undefined
        if (parent !== undefined && typeof parent.nom === "string" && link.nom !== parent.nom) {
          wrong.push(`${line.id}: ${key} named ${link.nom}, not ${parent.nom}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it("gives the dam's sire as pere_de_mere", () => {
    let checked = 0
    for (const line of lines) {
      const damId = linkOf(line, "mere")?.id
      const dam = readable(damId) ? byId.get(damId) : undefined
      if (dam === undefined) continue
      expect(linkOf(line, "pere_de_mere")?.id).toBe(linkOf(dam, "pere")?.id)
      checked++
    }
    expect(checked).toBeGreaterThan(COUNT / 3)
  })

  it("has dangling links (some shared), unreadable link ids, and parents listed after their products", () => {
    const dangling: Array<string> = []
    let unreadableLinks = 0
    let forward = 0
    lines.forEach((line, k) => {
      for (const key of LINK_KEYS) {
        const id = linkOf(line, key)?.id
        if (id === undefined) continue
        if (!readable(id)) unreadableLinks++
        else if (!byId.has(id)) dangling.push(id)
        else if (position.get(id)! > k) forward++
      }
    })
    expect(dangling.length).toBeGreaterThanOrEqual(4)
    expect(dangling.length).toBeLessThan(30)
    expect(new Set(dangling).size).toBeLessThan(dangling.length)
    expect(unreadableLinks).toBeGreaterThanOrEqual(2)
    expect(forward).toBeGreaterThan(1000)
  })

  it("has a heavy-tailed choice of sires", () => {
    const products = new Map<string, number>()
    for (const line of lines) {
      const id = linkOf(line, "pere")?.id
      if (typeof id === "string") products.set(id, (products.get(id) ?? 0) + 1)
    }
    const counts = [...products.values()].sort((a, b) => b - a)
    expect(counts[0]).toBeGreaterThanOrEqual(100)
    expect(counts[0]).toBeLessThan(COUNT / 20)
    // Most sires have a handful of products.
    expect(counts[Math.floor(counts.length / 2)]).toBeLessThan(10)
  })

  it("writes expanded breed labels, polluted by a few race times", () => {
    const races = lines.map((line) => line.race).filter((race): race is string => typeof race === "string" && race !== "")
    const times = races.filter((race) => /^\d'\d\d"\d \(/.test(race))
    expect(races.filter((race) => race === "Trotteur Francais").length / COUNT).toBeGreaterThan(0.15)
    expect(times.length).toBeGreaterThan(5)
    expect(times.length / COUNT).toBeLessThan(0.01)
    expect(new Set(times).size).toBeGreaterThan(times.length * 0.9)
    expect(races.every((race) => race === race.trim() && !/[À-ÿ]/.test(race))).toBe(true)
  })

  it("writes absent values as missing keys, nulls and empty strings", () => {
    expect(lines.some((line) => !("robe" in line))).toBe(true)
    expect(lines.some((line) => line.robe === null)).toBe(true)
    expect(lines.some((line) => line.robe === "")).toBe(true)
    expect(share((line) => typeof line.robe === "string" && line.robe !== "")).toBeGreaterThan(0.95)
  })

  it("has birth years from 1975 to 2025, growing, a few missing, a few aberrant", () => {
    const years = lines.map((line) => line.annee_naissance)
    const plausible = years.filter(plausibleYear)
    expect(Math.min(...plausible)).toBe(1975)
    expect(Math.max(...plausible)).toBe(2025)
    expect(plausible.filter((year) => year >= 2015).length).toBeGreaterThan(plausible.filter((year) => year < 1985).length * 2)
    expect(years.filter((year) => typeof year !== "number").length).toBeGreaterThan(5)
    expect(years.filter((year) => typeof year === "number" && !plausibleYear(year)).length).toBeGreaterThanOrEqual(2)
  })

  it("derives slugs from names, except a few", () => {
    const named = lines.filter((line) => typeof line.nom === "string")
    const deduced = named.filter((line) => line.slug === slugify(line.nom as string)).length
    const undeducible = named.filter((line) => typeof line.slug === "string" && line.slug !== "" &&
      line.slug !== slugify(line.nom as string)).length
    expect(deduced / named.length).toBeGreaterThan(0.98)
    expect(undeducible).toBeGreaterThan(20)
    expect(named.every((line) => line.nom === (line.nom as string).toUpperCase())).toBe(true)
  })

  it("has upper-case names with accents and punctuation, some of them shared by many horses", () => {
    const names = lines.map((line) => line.nom).filter((nom): nom is string => typeof nom === "string")
    expect(names.some((nom) => /[ÉÈÊÂÎÔÛË]/.test(nom))).toBe(true)
    expect(names.some((nom) => nom.includes("'"))).toBe(true)
    expect(names.some((nom) => nom.includes("-"))).toBe(true)
    const counts = new Map<string, number>()
    for (const nom of names) counts.set(nom, (counts.get(nom) ?? 0) + 1)
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(20)
  })

  it("publishes performances consistent with the breed and well-formed indices", () => {
    const wrong: Array<string> = []
    let indices = 0
    for (const line of lines) {
      if (!Array.isArray(line.performances)) continue
      if (line.performances.length === 0) wrong.push(`${line.id}: empty performances`)
      for (const performance of line.performances) {
        const discipline = performance.discipline as keyof typeof DISCIPLINE_CODES
        if (!DISCIPLINES.includes(discipline)) wrong.push(`${line.id}: discipline ${discipline}`)
        if (discipline === "TROT COURSE" && labelOf(line)?.startsWith("Trotteur") === false) {
          wrong.push(`${line.id}: a ${labelOf(line)} racing in harness`)
        }
        if (typeof performance.texte !== "string") wrong.push(`${line.id}: no texte`)
        for (const index of performance.indices) {
          indices++
          const problems = [
            !INDEX_CODES.includes(index.code) || !(DISCIPLINE_CODES[discipline] as ReadonlyArray<string>).includes(index.code),
            !(index.code.startsWith("B") ? /^[+-]\d+$/ : /^\d+$/).test(index.valeur),
            !(index.coefficient >= 0 && index.coefficient <= 1),
            Math.round(index.coefficient * 100) / 100 !== index.coefficient,
            !Number.isInteger(index.annee)
          ]
          if (problems.some(Boolean)) wrong.push(`${line.id}: ${JSON.stringify(index)}`)
        }
      }
    }
    expect(wrong).toEqual([])
    expect(indices).toBeGreaterThan(COUNT / 5)
  })

  it("declares breeding status only for stallions and mares, and race records only for trotters", () => {
    const statuses = new Set<unknown>()
    for (const line of lines) {
      if (typeof line.statut_reproducteur === "string") {
        statuses.add(line.statut_reproducteur)
        expect(line.sexe).toBe(line.statut_reproducteur === "Pouliniere" ? "Femelle" : "Male")
      }
      if (typeof line.record === "string" && labelOf(line) !== undefined) expect(labelOf(line)).toMatch(/^Trotteur/)
    }
    expect(statuses).toContain("Pouliniere")
    expect(statuses).toContain("Etalon Actif")
  })

  it("carries the breeder's name (personal data) on most lines", () => {
    expect(share((line) => typeof line.naisseur === "string" && line.naisseur.length > 0)).toBeGreaterThan(0.9)
  })

  it("keeps link countries and aliases occasional", () => {
    const links = lines.flatMap((line) => LINK_KEYS.map((key) => linkOf(line, key)).filter((link) => link !== undefined))
    const withCountry = links.filter((link) => typeof link.pays === "string").length
    expect(withCountry).toBeGreaterThan(0)
    expect(withCountry / links.length).toBeLessThan(0.3)
    expect(links.some((link) => "alias" in link)).toBe(true)
  })
})

describe("the population behind an extract", () => {
  it("lays records out by birth year and shuffles the file order", () => {
    const population = generatePopulation({ seed: 7, count: 5000 })
    for (let i = 1; i < population.count; i++) expect(population.year[i]).toBeGreaterThanOrEqual(population.year[i - 1])
    expect([...population.order].sort((a, b) => a - b)).toEqual(Array.from({ length: 5000 }, (_, i) => i))
  })
})

describe("race pollution (racePollution)", () => {
  const RACE_TIME = /^1'\d\d"\d \([A-Z]{3}\d[A-Z]\)$/
  /** The registry's extract: 11 747 distinct race values at 4 450 000 lines. */
  const registryDistinctPer = (count: number): number => (11_747 * count) / 4_450_000
  const distinctRaces = (polluted: ReadonlyArray<RawLine>): number =>
    new Set(polluted.map((line) => line.race).filter((race) => typeof race === "string" && race !== "")).size
  const polluted30: ReadonlyArray<RawLine> = [...generateExtract({ seed: 7, count: COUNT, racePollution: 30 })]

  it("gives 30 times the registry's distinct race values, enough for 300 000 at 4.45 M lines", () => {
    const distinct = distinctRaces(polluted30)
    // Binomial around 30 × 52.8 = 1 584 race times (sd 38), plus the 50-odd breed labels.
    expect(Math.abs(distinct - 30 * registryDistinctPer(COUNT))).toBeLessThan(200)
    expect(distinct * (4_450_000 / COUNT)).toBeGreaterThanOrEqual(300_000)
  })

  it("scales with the factor", () => {
    const times = (factor: number) =>
      [...generateExtract({ seed: 8, count: COUNT, racePollution: factor })]
        .filter((line) => typeof line.race === "string" && RACE_TIME.test(line.race)).length
    const at10 = times(10)
    const at40 = times(40)
    expect(Math.abs(at10 - 10 * registryDistinctPer(COUNT))).toBeLessThan(100)
    expect(Math.abs(at40 / at10 - 4)).toBeLessThan(0.5)
  })

  it("writes each a race time with its own code, and leaves every other field as without it", () => {
    let changed = 0
    for (const [k, line] of polluted30.entries()) {
      const plain = lines[k]
      const { race, ...rest } = line
      const { race: plainRace, ...plainRest } = plain
      expect(rest).toEqual(plainRest)
      // Same key order: a polluted line reads as the plain one does.
      expect(Object.keys(line).filter((key) => key !== "race")).toEqual(Object.keys(plain).filter((key) => key !== "race"))
      if (race !== plainRace) {
        changed++
        expect(race).toMatch(RACE_TIME)
      }
    }
    expect(changed).toBeGreaterThan(1000)
  })

  it("changes nothing at 0, and refuses a factor it cannot honour", () => {
    expect([...generateExtract({ seed: 7, count: 500, racePollution: 0 })]).toEqual([...generateExtract({ seed: 7, count: 500 })])
    expect(() => generateExtract({ seed: 1, count: 1, racePollution: -1 }).next()).toThrow(RangeError)
    expect(() => generateExtract({ seed: 1, count: 1, racePollution: Number.NaN }).next()).toThrow(RangeError)
    expect(() => generateExtract({ seed: 1, count: 1, racePollution: 400 }).next()).toThrow(RangeError)
  })
})
