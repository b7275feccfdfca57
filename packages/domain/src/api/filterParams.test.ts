import { describe, expect, it } from "@effect/vitest"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { resolveFilters } from "../query/filters.ts"
import { select } from "../query/select.ts"
import { membership } from "../query/selection.ts"
import { datasetArbitrary } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { SEXES } from "../vocabulary.ts"
import { filterDefs } from "./filterParams.ts"

/** The server's decoding of `sexe` (the schema whose pattern the document shows). */
const decodeSexe = Schema.decodeUnknownExit(Schema.Struct({ sexe: filterDefs.sexe.field }))
const admitted = (values: ReadonlyArray<string>): boolean => Exit.isSuccess(decodeSexe({ sexe: values }))

/**
 * A French speaker's spelling of `value`, built naively: each letter in either case with up to
 * two combining accents, then composed (NFC: `e` + U+0301 is `é`) or left decomposed, blanks
 * around. The document admits precomposed letters up to U+017F; NFC can reach beyond (`ẽ`),
 * which is left out here.
 */
const spelling = (value: string): fc.Arbitrary<string> =>
  fc.tuple(
    fc.tuple(...[...value].map((letter) =>
      fc.tuple(fc.boolean(), fc.array(fc.integer({ min: 0x300, max: 0x36f }), { maxLength: 2 }))
        .map(([upper, marks]) => (upper ? letter.toUpperCase() : letter.toLowerCase()) + String.fromCharCode(...marks))
    )),
    fc.boolean(),
    fc.constantFrom("", " ", "\u00a0")
  ).map(([letters, compose, blank]) => {
    const text = letters.join("")
    return blank + (compose ? text.normalize("NFC") : text) + blank
  }).filter((text) => [...text].every((c) => c.charCodeAt(0) < 0x180 || (c.charCodeAt(0) >= 0x300 && c.charCodeAt(0) <= 0x36f)))

const rowsOf = (data: Parameters<typeof select>[0], sexe: ReadonlyArray<string>): Array<number> => {
  const filters = resolveFilters(data, { sexe })
  if (Result.isFailure(filters)) throw new Error(filters.failure.detail)
  const keep = membership(data, select(data, filters.success))
  return Array.from({ length: data.size }, (_, row) => row).filter(keep)
}

describe("sexe", () => {
  it("admits the spellings of the issue, repeated or comma-separated, and refuses other words", () => {
    for (const value of ["Mâle", "FEMELLE", "Indéter", "Fémelle", "hongre", "Male, Femelle", " mâle ,INDÉTER "]) {
      expect(admitted([value]), value).toBe(true)
    }
    expect(admitted(["male", "Fémelle"])).toBe(true)
    for (const value of ["", "M", "jument", "Males", "Ma le", "Male,", "Mâle;Femelle", "M\u0141le", "Mẽle"]) {
      expect(admitted([value]), value).toBe(false)
    }
  })

  it("any case or accent variant of the four values is admitted and selects the rows of the canonical value", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 40 }),
        fc.constantFrom(...SEXES).chain((sexe) => fc.tuple(fc.constant(sexe), spelling(sexe))),
        ({ data }, [sexe, variant]) => {
          expect(admitted([variant]), JSON.stringify(variant)).toBe(true)
          expect(rowsOf(data, [variant])).toEqual(rowsOf(data, [sexe]))
        }
      ),
      { numRuns: 300 }
    )
  })

  it("whatever text the pattern admits, the query engine resolves (the document never promises a refusal)", () => {
    const data = buildDataset([{ id: idN(0), nom: "A", sexe: "Male" }])
    const word = fc.constantFrom(...SEXES).chain(spelling)
    const noise = fc.constantFrom("", ",", " ", "\u0301", "x", "-", "é", "L", "Ma")
    const text = fc.array(fc.tuple(word, noise), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([w, n]) => w + n).join(""))
    let seen = 0
    fc.assert(
      fc.property(text, (value) => {
        if (admitted([value])) {
          seen++
          expect(Result.isSuccess(resolveFilters(data, { sexe: [value] })), JSON.stringify(value)).toBe(true)
        }
      }),
      { numRuns: 1000 }
    )
    expect(seen).toBeGreaterThan(50)
  })
})
