/**
 * The quota prices a request for the value its answer is computed with (issue 25, item 2): an
 * integer parameter is read by the cost estimate exactly as the decoder reads it, whatever its
 * spelling. Two models: the plain digits of a value built spelling by spelling, and the decoder
 * itself (the list's `annee_min`, an integer without bounds): a text it admits costs what the
 * plain digits of its value cost, one it refuses costs what the request without the parameter costs.
 */
import { describe, expect, it } from "@effect/vitest"
import { buildDataset, type DatasetData, listQuery } from "@equides/domain"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { FAMILY } from "../testing/family.ts"
import { costOf } from "./quota.ts"
import { scanQuery } from "./requestSize.ts"

const decodeList = Schema.decodeUnknownExit(Schema.Struct(listQuery.fields))
/** What the decoder reads in `text`, given as an integer parameter without bounds. */
const decoded = (text: string): number | undefined => {
  const exit = decodeList({ annee_min: text })
  return Exit.isSuccess(exit) ? exit.value.annee_min : undefined
}

const data: DatasetData = buildDataset(FAMILY)

/** Integer parameters the cost reads, on a route whose cost depends on them, with a range where it does. */
const PRICED: ReadonlyArray<{ readonly route: string; readonly path: string; readonly name: string; readonly min: number; readonly max: number }> = [
  { route: "/v1/equides", path: "/v1/equides?vue=complet", name: "limite", min: -5, max: 120 },
  { route: "/v1/equides/:id/pedigree", path: "/v1/equides/x/pedigree?", name: "generations", min: -2, max: 10 },
  { route: "/v1/accouplements", path: "/v1/accouplements?pere=a&mere=b", name: "generations", min: -2, max: 14 },
  { route: "/v1/equides/:id/consanguinite", path: "/v1/equides/x/consanguinite?", name: "generations", min: -2, max: 14 },
  { route: "/v1/equides/:id/descendance", path: "/v1/equides/x/descendance?", name: "limite", min: -5, max: 120 },
  { route: "/v1/search", path: "/v1/search?q=a", name: "limite", min: -5, max: 120 },
  { route: "/v1/stats/repartition", path: "/v1/stats/repartition?dimension=race", name: "limite", min: -5, max: 1200 }
]

const withParam = (path: string, name: string, text: string): string =>
  `${path}${path.endsWith("?") ? "" : "&"}${name}=${encodeURIComponent(text)}`
const costAt = (route: string, url: string): number => costOf(route, scanQuery(url), data)

/** Every way of writing `n` that a JSON number admits: plain, with a fraction of zeros, with an exponent. */
const spellings = (n: number, zeros: number, shift: number, upper: boolean, plusSign: boolean): ReadonlyArray<string> => {
  const sign = n < 0 ? "-" : ""
  const digits = String(Math.abs(n))
  const e = upper ? "E" : "e"
  // n = m × 10^shift, with m written as digits and a decimal point: 1200 → 1.2e3, 0.12e4, 12e2.
  const padded = digits.padStart(shift + 1, "0")
  const cut = padded.length - shift
  const mantissa = shift === 0 ? padded : `${padded.slice(0, cut)}.${padded.slice(cut)}`
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0
  const out = [`${sign}${digits}`, `${sign}${digits}.${"0".repeat(zeros)}`, `${sign}${mantissa}${e}${plusSign ? "+" : ""}${shift}`]
  // Trailing zeros of n may go to the exponent: 100 → 1e2, 10e1.
  if (n !== 0 && trailing > 0) out.push(`${sign}${digits.slice(0, digits.length - trailing)}${e}${trailing}`)
  return out.filter((text) => !/^-?0[0-9]/.test(text))
}

describe("the quota reads integers as the decoder does", () => {
  it("prices the issue's examples for their value: generations=12.0 costs 38 units, vue=complet&limite=1e2 costs 5", () => {
    // 700 B + 150 B × (2^12 − 1) = 614 950 B: 38 units of 16 KiB; 100 complete records × 800 B: 5.
    expect(costAt("/v1/accouplements", "/v1/accouplements?pere=a&mere=b&generations=12.0")).toBe(38)
    expect(costAt("/v1/accouplements", "/v1/accouplements?pere=a&mere=b&generations=1.2e1")).toBe(38)
    expect(costAt("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite?generations=1.2E1")).toBe(38)
    expect(costAt("/v1/equides", "/v1/equides?vue=complet&limite=1e2")).toBe(5)
    expect(costAt("/v1/equides", "/v1/equides?vue=complet&limite=100.0")).toBe(5)
    expect(costAt("/v1/equides/:id/pedigree", "/v1/equides/x/pedigree?generations=0.8e1")).toBe(4)
    expect(costAt("/v1/stats/repartition", "/v1/stats/repartition?limite=1e3")).toBe(3)
  })

  it("every spelling the decoder admits costs what the plain digits of its value cost", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRICED),
        fc.integer({ min: 0, max: 1 << 20 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        fc.boolean(),
        (priced, seed, zeros, shift, upper, plusSign) => {
          const n = priced.min + (seed % (priced.max - priced.min + 1))
          const plain = costAt(priced.route, withParam(priced.path, priced.name, String(n)))
          for (const text of spellings(n, zeros, shift, upper, plusSign)) {
            expect(decoded(text), text).toBe(n)
            expect(costAt(priced.route, withParam(priced.path, priced.name, text)), text).toBe(plain)
          }
        }
      )
    )
  })

  it("any text: the decoder's value prices it, and a text it refuses costs what the absent parameter costs", () => {
    const text = fc.string({ unit: fc.constantFrom("0", "1", "2", "9", ".", "e", "E", "+", "-", " ", "x"), maxLength: 8 })
    fc.assert(
      fc.property(fc.constantFrom(...PRICED), text, (priced, raw) => {
        const value = decoded(raw)
        const expected = value === undefined
          ? costAt(priced.route, priced.path)
          : costAt(priced.route, withParam(priced.path, priced.name, String(value)))
        expect(costAt(priced.route, withParam(priced.path, priced.name, raw)), raw).toBe(expected)
      }),
      { numRuns: 2000 }
    )
  })
})
