import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import fc from "fast-check"
import { bitsOfLists } from "../dataset/bits.ts"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import {
  compareText,
  datasetArbitrary,
  filterInputArbitrary,
  type NaiveRow,
  naiveRows,
  naiveSelect,
  syntheticRecords
} from "../testing/arbitraries.ts"
import { idN } from "../testing/ids.ts"
import { type FilterInput, resolveFilters } from "./filters.ts"
import { listPage, MAX_OFFSET, paginationLinks } from "./paginate.ts"
import { select } from "./select.ts"
import { selectionOfBits, selectionOfRows, selectionRows } from "./selection.ts"
import { orderedWindow, type PageStats, type Strategy, WALK_SAMPLES } from "./sort.ts"
import { type Tri, TRIS } from "../vocabulary.ts"

const resolved = (data: DatasetData, input: FilterInput) => {
  const r = resolveFilters(data, input)
  if (Result.isFailure(r)) throw new Error(r.failure.detail)
  return r.success
}

/** The naive order of `tri` over some rows. */
const naiveOrder = (rows: ReadonlyArray<NaiveRow>, tri: Tri): Array<number> => {
  const byYear = (direction: number) => (a: NaiveRow, b: NaiveRow): number => {
    if (a.year === undefined || b.year === undefined) {
      return (a.year === undefined ? 1 : 0) - (b.year === undefined ? 1 : 0) || a.row - b.row
    }
    return direction * (a.year - b.year) || a.row - b.row
  }
  const sorted = [...rows]
  switch (tri) {
    case "naturel":
      break
    case "-naturel":
      sorted.reverse()
      break
    case "nom":
      sorted.sort((a, b) => compareText(a.nameKey, b.nameKey) || a.row - b.row)
      break
    case "-nom":
      sorted.sort((a, b) => compareText(b.nameKey, a.nameKey) || a.row - b.row)
      break
    case "annee":
      sorted.sort(byYear(1))
      break
    case "-annee":
      sorted.sort(byYear(-1))
      break
  }
  return sorted.map((r) => r.row)
}

const STRATEGIES: ReadonlyArray<Strategy | undefined> = [undefined, "walk", "sort", "bitmap", "count"]

describe("listPage", () => {
  it("cuts the naive order of every tri, whatever the strategy", () => {
    fc.assert(
      fc.property(
        datasetArbitrary({ maxLength: 70 }).chain((g) =>
          fc.tuple(
            fc.constant(g),
            fc.option(filterInputArbitrary(g.records), { nil: undefined, freq: 2 }),
            fc.constantFrom(...TRIS),
            fc.nat(80),
            fc.integer({ min: 1, max: 30 }),
            fc.constantFrom(...STRATEGIES)
          )
        ),
        ([{ data, records }, input, tri, offset, limite, force]) => {
          const model = naiveRows(records)
          const kept = new Set(input === undefined ? model.map((r) => r.row) : naiveSelect(model, input))
          const expected = naiveOrder(model.filter((r) => kept.has(r.row)), tri).slice(offset, offset + limite)
          const selection = select(data, resolved(data, input ?? {}))
          const stats: PageStats = { strategy: "", visited: 0 }
          const page = orderedWindow(data, selection, tri, offset, limite, stats, force)
          expect([...page]).toEqual(expected)
          // A selection given as explicit rows (bitmap membership) gives the same page.
          const listed = selectionRows(selection)
          if (listed !== undefined) {
            expect([...orderedWindow(data, selectionOfRows(listed), tri, offset, limite, stats, force)]).toEqual(expected)
          }
          expect(listPage(data, selection, tri, offset, limite).total).toBe(kept.size)
        }
      ),
      { numRuns: 400 }
    )
  })

  it("puts rows without a birth year last in both directions, ties in file order", () => {
    const data = buildDataset([
      { id: idN(0), nom: "A" },
      { id: idN(1), nom: "B", annee_naissance: 2001 },
      { id: idN(2), nom: "C", annee_naissance: 2000 },
      { id: idN(3), nom: "D" },
      { id: idN(4), nom: "E", annee_naissance: 2001 },
      { id: idN(5), nom: "É", annee_naissance: 2000 }
    ])
    const all = select(data, resolved(data, {}))
    const page = (tri: Tri, rows = all) => [...listPage(data, rows, tri, 0, 10).rows]
    expect(page("annee")).toEqual([2, 5, 1, 4, 0, 3])
    expect(page("-annee")).toEqual([1, 4, 2, 5, 0, 3])
    expect(page("nom")).toEqual([0, 1, 2, 3, 4, 5])
    expect(page("-nom")).toEqual([4, 5, 3, 2, 1, 0])
    const some = selectionOfRows(Uint32Array.of(0, 1, 3, 5))
    expect(page("-annee", some)).toEqual([1, 5, 0, 3])
    expect(page("-naturel", some)).toEqual([5, 3, 1, 0])
  })

  it("keeps file order among equal folded names in -nom, across page boundaries", () => {
    const names = ["Zoé", "ZOE", "zoe", "Alpha", "ZOÉ", "Beta", "zoé"]
    const data = buildDataset(names.map((nom, i) => ({ id: idN(i), nom })))
    const all = select(data, resolved(data, {}))
    const pages = [0, 2, 4, 6].flatMap((offset) => [...listPage(data, all, "-nom", offset, 2).rows])
    expect(pages).toEqual([0, 1, 2, 4, 6, 5, 3])
  })
})

describe("paginationLinks", () => {
  const query = [["race", "Selle Français"], ["offset", "40"], ["tri", "-nom"], ["limite", "20"]] as const

  it("rewrites limite and offset in place and encodes the rest", () => {
    const links = paginationLinks("/v1/equides", query, 40, 20, 100)
    expect(links.suivant).toBe("/v1/equides?race=Selle%20Fran%C3%A7ais&offset=60&tri=-nom&limite=20")
    expect(links.precedent).toBe("/v1/equides?race=Selle%20Fran%C3%A7ais&offset=20&tri=-nom&limite=20")
    expect(links.note).toBeUndefined()
    expect(paginationLinks("/v1/equides", [["nom", "a&b=c"]], 0, 20, 100).suivant).toBe("/v1/equides?nom=a%26b%3Dc&limite=20&offset=20")
  })

  it("gives every window the links a client paging through the rows needs (spec, Pagination; design 2.2)", () => {
    // A model of what the links are for, not of how they are computed: the spec admits offsets 0
    // to 10 000, so the rows a client can see at a `limite` are those of some admitted page
    // (counted by trying every offset); `suivant` leads on to them without skipping any,
    // `precedent` back, and `note` says when some rows stay out of reach.
    const DEPTH = 10000
    const reachable = (limite: number, total: number): number => {
      let seen = 0
      for (let offset = 0; offset <= DEPTH; offset++) seen = Math.max(seen, Math.min(total, offset + limite))
      return seen
    }
    const offsetOf = (uri: string) => Number(new URLSearchParams(uri.split("?")[1]).get("offset"))
    const nearDepth = fc.integer({ min: DEPTH - 250, max: DEPTH })
    fc.assert(
      fc.property(
        fc.oneof(fc.nat(DEPTH), nearDepth),
        fc.integer({ min: 1, max: 100 }),
        fc.oneof(fc.nat(30000), fc.integer({ min: DEPTH - 250, max: DEPTH + 250 })),
        (offset, limite, total) => {
          const links = paginationLinks("/v1/equides", [["sexe", "Male"]], offset, limite, total)
          // The first row after this page, and the end of what any page shows.
          const after = Math.min(total, offset + limite)
          const end = reachable(limite, total)
          if (offset === 0) {
            expect(links.precedent).toBeNull()
          } else {
            // The page just before: `limite` rows ending where this one starts, or the first page.
            const previous = offsetOf(links.precedent ?? "")
            expect(previous).toBeGreaterThanOrEqual(0)
            expect(previous === 0 || previous + limite === offset).toBe(true)
            expect(previous + limite).toBeGreaterThanOrEqual(offset)
            expect(previous).toBeLessThan(offset)
          }
          if (after >= end) {
            // Nothing a client could still reach follows: the last page, or the depth reached.
            expect(links.suivant).toBeNull()
          } else {
            const next = offsetOf(links.suivant ?? "")
            // An admitted offset, past this one, skipping no row: where this page ends when admitted.
            expect(next).toBeLessThanOrEqual(DEPTH)
            expect(next).toBeGreaterThan(offset)
            expect(next).toBeLessThanOrEqual(after)
            if (after <= DEPTH) expect(next).toBe(after)
          }
          expect(links.note !== undefined).toBe(end < total)
          for (const uri of [links.suivant, links.precedent]) {
            if (uri === null) continue
            const params = new URLSearchParams(uri.split("?")[1])
            expect(params.get("limite")).toBe(String(limite))
            expect(params.get("sexe")).toBe("Male")
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe("following suivant (spec, Pagination: null on the last page or when maximum depth is reached)", () => {
  // The spec's depth: offset 10 000 is admitted, so at limite L the first 10 000 + L rows are
  // reachable, which the note says; a client that follows `suivant` from any page must reach them.
  const DEPTH = 10000
  const offsetOf = (uri: string) => Number(new URLSearchParams(uri.split("?")[1]).get("offset"))
  const walk = (start: number, limite: number, total: number): { readonly seen: number; readonly offsets: Array<number> } => {
    const offsets = [start]
    let uri = paginationLinks("/v1/equides", [], start, limite, total).suivant
    while (uri !== null) {
      const offset = offsetOf(uri)
      expect(offset).toBeLessThanOrEqual(DEPTH)
      expect(offset).toBeGreaterThan(offsets[offsets.length - 1])
      offsets.push(offset)
      uri = paginationLinks("/v1/equides", [], offset, limite, total).suivant
    }
    const last = offsets[offsets.length - 1]
    return { seen: Math.min(total, last + limite), offsets }
  }

  it("from a page whose next offset would pass the depth, points to the last admitted offset", () => {
    expect(offsetOf(paginationLinks("/v1/equides", [], 9990, 20, 50000).suivant ?? "")).toBe(10000)
    expect(offsetOf(paginationLinks("/v1/equides", [], 9999, 100, 50000).suivant ?? "")).toBe(10000)
    expect(offsetOf(paginationLinks("/v1/equides", [], 9980, 20, 50000).suivant ?? "")).toBe(10000)
    expect(paginationLinks("/v1/equides", [], 10000, 20, 50000).suivant).toBeNull()
    expect(paginationLinks("/v1/equides", [], 9990, 20, 10015).suivant).toBe("/v1/equides?limite=20&offset=10000")
    // Past the end of a smaller selection: the last page has no next one.
    expect(paginationLinks("/v1/equides", [], 9990, 20, 10010).suivant).toBeNull()
  })

  it("walks every reachable row from any start: min(total, 10 000 + limite)", () => {
    for (const [start, limite, total] of [[0, 20, 50000], [7, 30, 12345], [9990, 20, 50000], [0, 100, 10050], [13, 100, 9000], [0, 1, 10002]] as const) {
      const { seen } = walk(start, limite, total)
      expect(seen, `${start}, ${limite}, ${total}`).toBe(Math.min(total, DEPTH + limite))
    }
  })
})

describe("listPage cost (regression: the hot paths keep their index)", () => {
  const data = buildDataset(syntheticRecords(60000, 7))
  const resolvedInput = (input: FilterInput) => select(data, resolved(data, input))

  it("walks the name permutation for a large selection and stops after the page", () => {
    const selection = resolvedInput({ sexe: ["Femelle"] })
    for (const tri of ["nom", "-nom"] as const) {
      const stats: PageStats = { strategy: "", visited: 0 }
      const page = listPage(data, selection, tri, 100, 20, stats)
      expect(page.rows.length).toBe(20)
      expect(stats.strategy).toBe("walk")
      expect(stats.visited).toBeLessThan(20 * (120 * data.size / selection.count))
    }
  })

  it("walks year buckets for a large selection", () => {
    const selection = resolvedInput({ race: ["Pur Sang", "Arabe"] })
    for (const tri of ["annee", "-annee"] as const) {
      const stats: PageStats = { strategy: "", visited: 0 }
      listPage(data, selection, tri, 0, 20, stats)
      expect(stats.strategy).toBe("walk")
      expect(stats.visited).toBeLessThan(500)
    }
  })

  it("reads the permutations directly for the whole set", () => {
    const all = resolvedInput({})
    for (const tri of TRIS) {
      const stats: PageStats = { strategy: "", visited: 0 }
      listPage(data, all, tri, MAX_OFFSET, 100, stats)
      expect(stats.visited).toBeLessThan(1000)
    }
  })

  it("sees a clustered selection before walking, and gives up a walk that its sample misled", () => {
    const n = data.size
    // The last 2 % of the name order: a walk from the start would cross the other 98 %. The rows
    // read spread over the order show it: no walk.
    const late = selectionOfRows(data.byName.slice(Math.floor(n * 0.98)).sort())
    const stats: PageStats = { strategy: "", visited: 0 }
    const page = listPage(data, late, "nom", 0, 20, stats)
    expect([...page.rows]).toEqual([...data.byName.slice(Math.floor(n * 0.98), Math.floor(n * 0.98) + 20)])
    expect(["sort", "bitmap"]).toContain(stats.strategy)
    expect(stats.visited).toBeLessThan(WALK_SAMPLES + late.count + n / 32 + 64)
    // The same late rows but those the sample reads, and ten early rows that it reads: it sees only
    // the early ones and expects the page at the start. The walk stops once it has cost what the
    // rank bitmap costs; a step costs a fourteenth of reading a row's name rank at random, so the
    // walk may take about 15 steps a selected row.
    const sampled = new Set(Array.from({ length: WALK_SAMPLES }, (_, j) => Math.floor(((j + 0.5) * n) / WALK_SAMPLES)))
    const early = [...sampled].sort((a, b) => a - b).slice(0, 10)
    const positions = [...early, ...Array.from({ length: n - Math.floor(n * 0.98) }, (_, i) => Math.floor(n * 0.98) + i).filter((p) => !sampled.has(p))]
    const misleading = selectionOfRows(Uint32Array.from(positions, (p) => data.byName[p]!).sort())
    const misled: PageStats = { strategy: "", visited: 0 }
    const misledPage = listPage(data, misleading, "nom", 0, 20, misled)
    expect([...misledPage.rows]).toEqual(positions.slice(0, 20).map((p) => data.byName[p]))
    expect(misled.strategy.startsWith("walk→")).toBe(true)
    expect(misled.visited).toBeLessThan(WALK_SAMPLES + 20 * misleading.count + n / 16)
    expect(misled.visited).toBeLessThan(n / 2)
    // The last 30 %: crossing 70 % of the order (a step each) costs less than reading 30 % of the
    // rows' name ranks at random: walked in one go (after its sample), not given up for the rank bitmap.
    const third = selectionOfRows(data.byName.slice(Math.floor(n * 0.7)).sort())
    const thirdStats: PageStats = { strategy: "", visited: 0 }
    listPage(data, third, "nom", 0, 20, thirdStats)
    expect(thirdStats.strategy).toBe("walk")
    expect(thirdStats.visited).toBeLessThan(WALK_SAMPLES + 0.7 * n + 100)
    const recentRows = Uint32Array.from(data.byYear.filter((row) => data.year[row] >= 2020))
    // As a bitset, whose membership test is free: the walk is chosen, and must give up.
    const recent = selectionOfBits(recentRows.length, bitsOfLists(data.size, [recentRows]))
    const yearStats: PageStats = { strategy: "", visited: 0 }
    const first = listPage(data, recent, "annee", 0, 5, yearStats).rows
    expect(yearStats.strategy).toBe("walk→count")
    expect([...first]).toEqual([...data.byYear.filter((row) => data.year[row] >= 2020).slice(0, 5)])
    // The walk gives up once the members it met say it would overrun (after 4 096 misses, not its
    // whole budget), then the rows are counted per year from the bitset's words and only the
    // window's year is walked.
    const words = Math.ceil(data.size / 32)
    expect(yearStats.visited).toBeLessThan(4096 + words + recent.count + 1024)
  })

  it("sorts a small selection instead of walking", () => {
    // 100 rows spread over the 60 000: a walk would take some 12 000 steps for a page of 20.
    const selection = selectionOfRows(Uint32Array.from({ length: 100 }, (_, i) => i * 600 + 7))
    const stats: PageStats = { strategy: "", visited: 0 }
    listPage(data, selection, "nom", 0, 20, stats)
    expect(["sort", "bitmap"]).toContain(stats.strategy)
    expect(stats.visited).toBeLessThanOrEqual(selection.count + data.size / 32 + 64)
  })
})
