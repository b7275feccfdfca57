import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import { compareText, datasetArbitrary, type NaiveRow, naiveRows, rowsByWord, syntheticRecords, variantArbitrary } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { foldWords } from "../text/fold.ts"
import { resolveCodes } from "./filters.ts"
import { checkQ, clampSuggestLimite, suggest, type SuggestStats, wordScore } from "./suggest.ts"
import { prepareWordScans } from "./suggestByWord.ts"

/** Naive suggestions: scan every row, score it, sort by (score, descendants, folded name, file order). */
const naiveSuggest = (rows: ReadonlyArray<NaiveRow>, q: string, limite: number) =>
  naiveRanked(rows, q).slice(0, clampSuggestLimite(limite))

const naiveRanked = (rows: ReadonlyArray<NaiveRow>, q: string) => {
  const words = foldWords(q)
  if (words.length === 0) return []
  const last = words[words.length - 1]
  const exact = words.slice(0, -1)
  const found: Array<{ row: NaiveRow; score: number }> = []
  for (const row of rows) {
    if (!exact.every((w) => row.words.includes(w))) continue
    const score = Math.max(0, ...row.words.map((w) => wordScore(last, w)))
    if (score > 0) found.push({ row, score })
  }
  found.sort((a, b) =>
    b.score - a.score ||
    b.row.descendants - a.row.descendants ||
    compareText(a.row.nameKey, b.row.nameKey) ||
    a.row.row - b.row.row
  )
  return found.map((f) => ({ row: f.row.row, score: f.score }))
}

const queryArbitrary = (rows: ReadonlyArray<NaiveRow>): fc.Arbitrary<string> => {
  const words = [...new Set(rows.flatMap((r) => r.words))]
  const word = words.length === 0 ? fc.constant("JO") : fc.oneof(fc.constantFrom(...words), fc.constantFrom("JO", "A", "É", "ZZZ"))
  return fc
    .tuple(fc.array(word, { minLength: 0, maxLength: 2 }), word, fc.nat(), fc.constantFrom(" ", "-", "  "))
    .map(([exact, last, cut, sep]) => [...exact, last.slice(0, 1 + (cut % last.length))].join(sep))
    .chain(variantArbitrary)
}

describe("suggest", () => {
  it("agrees with a naive scan and sort, membership and order, query after query on one Dataset", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 80 }).chain((g) => {
          const rows = naiveRows(g.records)
          // Several queries on the same Dataset: what one leaves in the thread's scratch bitset must not change the next.
          return fc.tuple(fc.constant(g), fc.constant(rows), fc.array(fc.tuple(queryArbitrary(rows), fc.integer({ min: -3, max: 120 })), { minLength: 1, maxLength: 4 }))
        }),
        ([{ data }, rows, queries]) => {
          for (const [q, limite] of queries) {
            const got = suggest(data, q, limite)
            expect(got).toEqual(naiveSuggest(rows, q, limite))
            expect(got.length).toBeLessThanOrEqual(clampSuggestLimite(limite))
            expect(new Set(got.map((s) => s.row)).size).toBe(got.length)
            for (const s of got) expect(s.score > 0 && s.score <= 1).toBe(true)
          }
        }
      ),
      { numRuns: 400 }
    )
  }, 60_000)

  it("with sexes, agrees with the naive scan of the rows of those sexes only", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 80 }).chain((g) => {
          const rows = naiveRows(g.records)
          const present = [...new Set(rows.map((row) => row.sexe))]
          return fc.tuple(
            fc.constant(g),
            fc.constant(rows),
            queryArbitrary(rows),
            fc.integer({ min: 1, max: 20 }),
            fc.subarray(present, { minLength: Math.min(1, present.length) })
          )
        }),
        ([{ data }, rows, q, limite, sexes]) => {
          if (sexes.length === 0) return
          const codes = resolveCodes("sexe", sexes, data.sexe)
          expect(Result.isSuccess(codes)).toBe(true)
          if (Result.isFailure(codes)) return
          const got = suggest(data, q, limite, undefined, codes.success)
          expect(got).toEqual(naiveSuggest(rows.filter((row) => sexes.includes(row.sexe)), q, limite))
        }
      ),
      { numRuns: 300 }
    )
  }, 60_000)

  it("scores 1 for a whole word, shorter completions higher, famous namesakes first", () => {
    const data = buildDataset([
      { id: idN(0), nom: "JOLIE" },
      { id: idN(1), nom: "Jo" },
      { id: idN(2), nom: "JOLI CŒUR" },
      { id: idN(3), nom: "JOLI", pere: { id: idN(2) } },
      { id: idN(4), nom: "JOLI", mere: { id: idN(3) } },
      { id: idN(5), nom: "Éclair du Joli", pere: { id: idN(3) } }
    ])
    const s = suggest(data, "jo", 10)
    // JOLI (row 3) has 2 products, JOLI CŒUR 1; then by folded name: ECLAIR DU JOLI < JOLI.
    expect(s.map((x) => x.row)).toEqual([1, 3, 2, 5, 4, 0])
    expect(s.map((x) => x.score)).toEqual([1, 0.5, 0.5, 0.5, 0.5, 0.4])
    expect(suggest(data, "joli", 10).map((x) => x.row)).toEqual([3, 2, 5, 4, 0])
    expect(suggest(data, "du jol", 2).map((x) => x.row)).toEqual([5])
    expect(suggest(data, "eclair d", 10)).toEqual([{ row: 5, score: 0.5 }])
    expect(suggest(data, "zzz jo", 10)).toEqual([])
    expect(suggest(data, " - ", 10)).toEqual([])
  })

  it("validates q and clamps limite", () => {
    expect(Result.isFailure(checkQ(undefined))).toBe(true)
    const blank = checkQ("   ")
    expect(Result.isFailure(blank) && blank.failure.parametre).toBe("q")
    expect(checkQ(" a")).toEqual(Result.succeed(" a"))
    expect(clampSuggestLimite(undefined)).toBe(10)
    expect(clampSuggestLimite(0)).toBe(1)
    expect(clampSuggestLimite(1000)).toBe(100)
  })
})

describe("suggest cost (regression: bounded by limite, not by the matches)", () => {
  const records = syntheticRecords(60000, 11)
  const data = buildDataset(records)
  const rows = naiveRows(records)

  it("reads about limite postings for one-letter and short queries", () => {
    let large = 0
    for (const q of ["A", "M", "S", "Z", "JO", "STAR", "r"]) {
      const ranked = naiveRanked(rows, q)
      const matches = ranked.length
      if (matches > 1000) large++
      for (const limite of [1, 10, 100]) {
        const stats: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
        const got = suggest(data, q, limite, stats)
        expect(got).toEqual(ranked.slice(0, limite))
        expect(stats.strategy).toBe("prefix")
        expect(stats.visited).toBeLessThanOrEqual(4 * limite + 16)
        if (matches > 4 * limite + 16) expect(stats.visited).toBeLessThan(matches)
      }
    }
    expect(large).toBeGreaterThan(3)
  })

  it("keeps multi-word queries correct on every driver", () => {
    const strategies = new Set<string>()
    for (const q of ["A ba", "STAR A", "LOLO RI", "ALUS M", "A A", "ABA ALAL", "AIX ALI"]) {
      const stats: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
      expect(suggest(data, q, 10, stats)).toEqual(naiveSuggest(rows, q, 10))
      strategies.add(stats.strategy)
    }
    expect([...strategies].sort()).toEqual([
      "prefix",
      "prefix→exact-word by bits",
      "prefix→exact-word by length",
      "prefix→exact-word by tokens"
    ])
  })

  it("answers a frequent whole word with any last word by its bits, as the naive scan does", () => {
    // The words the Dataset keeps a bitset of (at least 1/32 of the rows), each with every two-letter prefix.
    const holding = rowsByWord(rows)
    const frequent = [...holding].filter(([, those]) => those.length >= rows.length / 32)
    const prefixes = [...new Set([...holding.keys()].map((word) => word.slice(0, 2)))]
    let byBits = 0
    for (const [word, those] of frequent) {
      for (const prefix of prefixes) {
        const q = `${word} ${prefix}`
        const stats: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
        expect(suggest(data, q, 10, stats), q).toEqual(naiveSuggest(those, q, 10))
        if (stats.strategy === "prefix→exact-word by bits") byBits++
      }
    }
    expect(byBits).toBeGreaterThan(frequent.length * prefixes.length / 2)
  })

  it("answers as before once each thread's scans are prepared", () => {
    const prepared = buildDataset(records)
    prepareWordScans(prepared)
    for (const q of ["A ba", "STAR A", "LOLO RI", "ALUS M", "A A", "ABA ALAL", "AIX ALI", "A", "JO"]) {
      expect(suggest(prepared, q, 10), q).toEqual(naiveSuggest(rows, q, 10))
    }
  })

  it("keeps multi-word queries correct on every driver with sexes", () => {
    const codes = resolveCodes("sexe", ["Femelle"], data.sexe)
    if (Result.isFailure(codes)) throw new Error(codes.failure.detail)
    const strategies = new Set<string>()
    for (const q of ["A ba", "STAR A", "LOLO RI", "ALUS M", "A A", "ABA ALAL", "AIX ALI", "A", "JO"]) {
      const stats: SuggestStats = { strategy: "", visited: 0, tokens: 0 }
      expect(suggest(data, q, 10, stats, codes.success), q).toEqual(naiveSuggest(rows.filter((row) => row.sexe === "Femelle"), q, 10))
      strategies.add(stats.strategy)
    }
    expect([...strategies].sort()).toEqual([
      "prefix",
      "prefix→exact-word by bits",
      "prefix→exact-word by length",
      "prefix→exact-word by tokens"
    ])
  })
})
