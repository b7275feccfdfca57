import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { CSV_COLUMNS } from "./csvColumns.ts"
import { CSV_HEADER, csvCell, recordToCsvRow } from "./csvRow.ts"

const cellsOf = (row: Record<string, string>): string =>
  CSV_COLUMNS.map((column) => row[column] ?? "").join(",")

describe("recordToCsvRow", () => {
  it.effect("writes the header in CSV_COLUMNS order", () =>
    Effect.sync(() => {
      expect(CSV_HEADER.split(",")).toEqual([...CSV_COLUMNS])
    }))

  it.effect("quotes per RFC 4180 only the cells that need it", () =>
    Effect.sync(() => {
      expect(csvCell("QABALAH MERCURY")).toBe("QABALAH MERCURY")
      expect(csvCell("1'10\"2 (ASC6H)")).toBe("\"1'10\"\"2 (ASC6H)\"")
      expect(csvCell("a,b")).toBe("\"a,b\"")
      expect(csvCell("a\nb")).toBe("\"a\nb\"")
      expect(csvCell("a\rb")).toBe("\"a\rb\"")
    }))

  it.effect("flattens links, writes performances as JSON and absent values as empty cells", () =>
    Effect.sync(() => {
      const performances = [{ discipline: "TROT COURSE", indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35 }] }]
      expect(recordToCsvRow({
        id: "Z4ogLhlkS2CeUdq0bZ0YFw",
        nom: "ÉCLAIR D'ÉTÉ",
        slug: null,
        annee_naissance: 2012,
        pere: { id: "gecpqPj6Rc2vy_Hz_Y1DmQ", nom: "BOOSTER, WINNER", race: "TF" },
        pere_de_mere: { alias: "CHARLY" },
        performances,
        naisseur: "M. Personne"
      })).toBe(cellsOf({
        id: "Z4ogLhlkS2CeUdq0bZ0YFw",
        nom: "ÉCLAIR D'ÉTÉ",
        annee_naissance: "2012",
        pere_id: "gecpqPj6Rc2vy_Hz_Y1DmQ",
        pere_nom: "\"BOOSTER, WINNER\"",
        pere_race: "TF",
        pere_de_mere_alias: "CHARLY",
        performances: csvCell(JSON.stringify(performances)),
        naisseur: "M. Personne"
      }))
    }))

  it.effect("leaves a wrongly typed value empty, as the JSON Lines reader ignores it", () =>
    Effect.sync(() => {
      expect(recordToCsvRow({ nom: 12, annee_naissance: "2012", pere: "TF", mere: [{ id: "x" }], performances: {} }))
        .toBe(cellsOf({}))
      expect(recordToCsvRow({ annee_naissance: 2010.5 })).toBe(cellsOf({ annee_naissance: "2010.5" }))
    }))
})
