/**
 * Test helpers for the offspring statistics: a hand family with known values, records whose index
 * values vary (dated and undated, tied, decimal, unreadable), and a naive model of an offspring's
 * value and of a parent's offspring. Not exported by the package.
 */
import fc from "fast-check"
import type { SourceIndex, SourcePerformance, SourceRecord } from "../dataset/SourceRecord.ts"
import { recordsArbitrary } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"

export const SIRE = idN(1)
export const MARE = idN(2)

const index = (code: string, valeur: string, annee?: number): SourceIndex => ({ code, valeur, ...(annee === undefined ? {} : { annee }) })
const perf = (discipline: string, ...indices: ReadonlyArray<SourceIndex>): SourcePerformance => ({ discipline, indices })
const link = (id: string, nom: string) => ({ id, nom, race: "SF" })

const foal = (n: number, nom: string, extra: Partial<SourceRecord>): SourceRecord => ({
  id: idN(n),
  nom,
  race: "Selle Francais",
  sexe: "Femelle",
  pere: link(SIRE, "SIRE"),
  ...extra
})

/**
 * SIRE's six foals (MARE the dam of three): ISO 120 (of 100 and 120, the later), +130, 110 (two
 * undated: the first listed), unreadable (the latest, an older 140 ignored), 130, none. BTR −3.5 and
 * IDR 7 once each. Two grand-foals, one of them by two of the foals.
 */
export const family: ReadonlyArray<SourceRecord> = [
  { id: SIRE, nom: "SIRE", race: "Selle Francais", sexe: "Male" },
  { id: MARE, nom: "MARE", race: "Selle Francais", sexe: "Femelle" },
  foal(10, "ALPHA", {
    annee_naissance: 2010,
    mere: link(MARE, "MARE"),
    performances: [perf("CSO", index("ISO", "100", 2014)), perf("CSO", index("ISO", "120", 2015))]
  }),
  foal(11, "BRAVO", {
    annee_naissance: 2010,
    sexe: "Male",
    mere: link(MARE, "MARE"),
    performances: [perf("CSO", index("ISO", "+130", 2016)), perf("TROT", index("BTR", "-3.5", 2016))]
  }),
  foal(12, "CHARLIE", {
    annee_naissance: 2011,
    sexe: "Hongre",
    mere: link(MARE, "MARE"),
    race: "Trotteur Francais",
    performances: [perf("CSO", index("ISO", "110"), index("ISO", "90"))]
  }),
  foal(13, "DELTA", { race: "", performances: [perf("CSO", index("ISO", "140", 2019), index("ISO", "abc", 2020))] }),
  foal(14, "ECHO", { annee_naissance: 2012, performances: [perf("CSO", index("ISO", "130", 2015)), perf("DRESSAGE", index("IDR", "7", 2015))] }),
  foal(15, "FOXTROT", { annee_naissance: 2012, sexe: "Hongre" }),
  {
    id: idN(16),
    nom: "GOLF",
    sexe: "Male",
    annee_naissance: 2018,
    pere: link(idN(11), "BRAVO"),
    mere: link(idN(10), "ALPHA"),
    performances: [perf("CSO", index("ISO", "100", 2022))]
  },
  { id: idN(17), nom: "HOTEL", sexe: "Femelle", annee_naissance: 2019, pere: link(idN(11), "BRAVO") }
]

/** Index values the generated records cycle through (13, prime to the step 7): ties, decimals, unreadable ones. */
const VALEURS = ["+59", "115", "-3", "-3.5", "115", "0.25", "abc", "115", "", "+0", "1e3", " 5", "12.75"] as const
const ANNEES = [undefined, 2020, 2021, 2021, 2024] as const

/**
 * Generated records whose indices' `valeur` and `annee` are rewritten from VALEURS and ANNEES; with
 * `fewParents`, most records are also given their `pere` and `mere` among the first five (of both sexes), so that
 * parents have many valued offspring (ties, medians, year bounds).
 */
export const valuedRecordsArbitrary = (maxLength: number, fewParents = false): fc.Arbitrary<Array<SourceRecord>> =>
  fc.tuple(recordsArbitrary({ minLength: fewParents ? 20 : 0, maxLength }), fc.nat(), fc.nat()).map(([records, a, b]) => {
    let k = 0
    return records.map((record, n): SourceRecord => {
      const parents = !fewParents
        ? {}
        : n < 5
        ? { sexe: n % 2 === 0 ? "Male" : "Femelle" }
        : (n + a) % 4 !== 0
        ? { pere: { id: records[(n * 3 + b) % 5].id ?? "" }, mere: { id: records[(n + a) % 5].id ?? "" } }
        : {}
      return {
        ...record,
        ...parents,
        ...(record.performances === undefined ? {} : {
          performances: record.performances.map((p) => ({
            ...p,
            indices: (p.indices ?? []).map((i): SourceIndex => {
              k++
              const annee = ANNEES[(k + a) % ANNEES.length]
              return {
                ...(i.code === undefined ? {} : { code: i.code }),
                valeur: VALEURS[(k * 7 + b) % VALEURS.length],
                ...(annee === undefined ? {} : { annee })
              }
            })
          }))
        })
      }
    })
  })

/** The naive value of `code` for a record: its index of that code with the latest annee, first on ties. */
export const naiveValue = (record: SourceRecord, code: string): { valeur: number; annee?: number; discipline?: string } | undefined => {
  let best: { index: SourceIndex; discipline: string | undefined } | undefined
  for (const p of record.performances ?? []) {
    for (const i of p.indices ?? []) {
      if (i.code !== code) continue
      const later = best === undefined || (best.index.annee ?? -Infinity) < (i.annee ?? -Infinity)
      if (later) best = { index: i, discipline: p.discipline }
    }
  }
  if (best === undefined || best.index.valeur === undefined || !/^[+-]?\d+(\.\d+)?$/.test(best.index.valeur)) return undefined
  return {
    valeur: Number(best.index.valeur),
    ...(best.index.annee === undefined ? {} : { annee: best.index.annee }),
    ...(best.discipline === undefined ? {} : { discipline: best.discipline })
  }
}

/** Row (file order) of each record's `pere` and `mere`, -1 when it names no record. */
export const naiveParents = (records: ReadonlyArray<SourceRecord>): Array<{ pere: number; mere: number }> => {
  const rowOf = new Map<string, number>()
  records.forEach((r, i) => rowOf.set(r.id ?? "", i))
  return records.map((r) => ({
    pere: r.pere?.id === undefined ? -1 : rowOf.get(r.pere.id) ?? -1,
    mere: r.mere?.id === undefined ? -1 : rowOf.get(r.mere.id) ?? -1
  }))
}

export const naiveRound = (x: number): number => Math.round(x * 100) / 100 + 0

/** Mean, median and maximum of values, naively. */
export const naiveSummary = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  return {
    moyenne: naiveRound(sorted.reduce((s, v) => s + v, 0) / n),
    mediane: naiveRound(median),
    maximum: sorted[n - 1]
  }
}

/** The code's discipline: the one most retained values are listed under, ties by name. */
export const naiveDiscipline = (records: ReadonlyArray<SourceRecord>, code: string): string | undefined => {
  const counts = new Map<string, number>()
  for (const r of records) {
    const d = naiveValue(r, code)?.discipline
    if (d !== undefined) counts.set(d, (counts.get(d) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0]
}
