import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { dictionaryValue, dictionaryValues } from "./columns.ts"
import { buildDataset } from "./Dataset.ts"
import { idOf } from "../query/record.ts"
import { family, naiveParents, naiveSummary, naiveValue, SIRE, valuedRecordsArbitrary } from "../query/progeny.fixtures.ts"
import { rowOf } from "../query/record.fixtures.ts"
import { compareText, naiveRows } from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import type { SourceRecord } from "./SourceRecord.ts"
import { byDescendingThenName, entryStart } from "./progenyColumns.ts"

describe("byDescendingThenName", () => {
  it("orders rows by rank descending, then folded name, then the text of their id", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 16, maxLength: 16 }), { minLength: 1, maxLength: 40, selector: (b) => Buffer.from(b).toString("hex") }),
        fc.array(fc.tuple(fc.constantFrom("Éclair", "ECLAIR", "eclair", "Zèbre", "A"), fc.constantFrom(0, 1, 2, 7)), { minLength: 40, maxLength: 40 }),
        fc.nat(),
        (ids, cells, shift) => {
          const data = buildDataset(ids.map((bytes, i) => ({ id: Buffer.from(bytes).toString("base64url"), nom: cells[i][0] })))
          // A subset of the rows, in no particular order.
          const rows = Uint32Array.from({ length: data.size }, (_, i) => (i + shift) % data.size).filter((_, i) => i % 3 !== 1)
          const ranks = Uint32Array.from(rows, (row) => cells[row][1])
          const order = byDescendingThenName(data, rows, ranks, new Uint32Array(data.size))
          const expected = [...rows.keys()].sort((a, b) =>
            ranks[b] - ranks[a] || data.nameKey[rows[a]] - data.nameKey[rows[b]] || compareText(idOf(data, rows[a]), idOf(data, rows[b]))
          )
          expect([...order]).toEqual(expected)
        }
      ),
      { numRuns: 200 }
    )
  })
})

describe("progenyColumns", () => {
  it("holds every code of the family, values by their index among the code's few values, one byte each", () => {
    const data = buildDataset(family)
    const columns = data.progenyColumns
    const codes = dictionaryValues(data.indice.values)
    const iso = codes.indexOf("ISO")
    // ISO: SIRE (4 valued foals), MARE (3), BRAVO and ALPHA (GOLF's 100 under both).
    expect(columns.codeGroups[iso + 1] - columns.codeGroups[iso]).toBe(4)
    expect(dictionaryValue(data.discipline.values, columns.disciplines[iso])).toBe("CSO")
    const valueOf = (i: number) => columns.values[columns.valueStart[iso] + columns.value[i]]
    const sire = columns.codeGroups[iso] + [...columns.parents.subarray(columns.codeGroups[iso], columns.codeGroups[iso + 1])].indexOf(rowOf(data, SIRE))
    const from = entryStart(columns, sire)
    expect(Array.from({ length: entryStart(columns, sire + 1) - from }, (_, k) => valueOf(from + k))).toEqual([130, 130, 120, 110])
    expect([...columns.values.subarray(columns.valueStart[iso], columns.valueStart[iso + 1])]).toEqual([100, 110, 120, 130])
    expect(columns.value).toBeInstanceOf(Uint8Array)
    expect(columns.offspring).toBeInstanceOf(Uint8Array)
  })

  it("matches a naive model on random datasets: groups by parent, entries in served order, parents ranked", () => {
    fc.assert(fc.property(valuedRecordsArbitrary(60, true), matchesNaiveModel), { numRuns: 100 })
  })

  it("matches it with groups over several blocks of 32 (each group's first entry its block's and its own)", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 40 }), { minLength: 70, maxLength: 150 }), fc.array(fc.constantFrom("+5", "112", "-3.5", "abc", "98.25"), { minLength: 1 }), (counts, valeurs) => {
        let n = 1000
        const records: Array<SourceRecord> = []
        counts.forEach((count, s) => {
          records.push({ id: idN(s + 1), nom: `S${s % 7}`, sexe: "Male" })
          for (let k = 0; k < count; k++, n++) {
            const valeur = valeurs[n % valeurs.length]
            records.push({ id: idN(n), nom: `F${n % 11}`, pere: { id: idN(s + 1) }, performances: [{ discipline: "CSO", indices: [{ code: "ISO", valeur }] }] })
          }
        })
        matchesNaiveModel(records)
      }),
      { numRuns: 15 }
    )
  })
})

/** The columns of `records` against a naive model: groups by parent, entries in served order, parents ranked. */
const matchesNaiveModel = (records: ReadonlyArray<SourceRecord>): void => {
  const data = buildDataset(records)
  const columns = data.progenyColumns
  const rows = naiveRows(records)
  const parents = naiveParents(records)
  const byNameThenId = (a: number, b: number) =>
    compareText(rows[a].nameKey, rows[b].nameKey) || compareText(records[a].id ?? "", records[b].id ?? "")
  const codes = dictionaryValues(data.indice.values)
  expect(columns.codeGroups.length).toBe(codes.length + 1)
  for (let code = 1; code < codes.length; code++) {
    const groups = records.flatMap((_, p) => {
      const valued = records.flatMap((child, c) => {
        if (parents[c].pere !== p && parents[c].mere !== p) return []
        const v = naiveValue(child, codes[code])
        return v === undefined ? [] : [{ c, valeur: v.valeur }]
      }).sort((a, b) => b.valeur - a.valeur || byNameThenId(a.c, b.c))
      return valued.length === 0 ? [] : [{ p, valued, ...naiveSummary(valued.map((v) => v.valeur)) }]
    })
    const first = columns.codeGroups[code]
    const got = Array.from({ length: columns.codeGroups[code + 1] - first }, (_, k) => {
      const g = first + k
      const base = data.progeny.offsets[columns.parents[g]]
      return {
        p: columns.parents[g],
        valued: Array.from({ length: entryStart(columns, g + 1) - entryStart(columns, g) }, (_, j) => {
          const i = entryStart(columns, g) + j
          return { c: data.progeny.rows[base + columns.offspring[i]], valeur: columns.values[columns.valueStart[code] + columns.value[i]] }
        })
      }
    })
    expect(got).toEqual(groups.map(({ p, valued }) => ({ p, valued })))
    const ranked = [...groups].sort((a, b) => b.moyenne - a.moyenne || b.valued.length - a.valued.length || byNameThenId(a.p, b.p))
    const ranking = [...columns.ranking.subarray(first, columns.codeGroups[code + 1])].map((g) => columns.parents[g])
    expect(ranking).toEqual(ranked.map((g) => g.p))
  }
}
