import { describe, expect, it } from "@effect/vitest"
import { readValeur, retainedIndex } from "./indexValue.ts"

describe("readValeur", () => {
  it("reads signed decimals and nothing else", () => {
    expect([readValeur("+6"), readValeur("88"), readValeur("-3.5"), readValeur("-0"), readValeur("007")]).toEqual([6, 88, -3.5, 0, 7])
    for (const text of ["", " 5", "5 ", "1e3", "+-3", "3.", ".5", "0x10", "3,5", "abc", "Infinity", undefined]) {
      expect(readValeur(text)).toBeUndefined()
    }
  })
})

describe("retainedIndex", () => {
  it("takes the latest annee, the first listed on a tie, an undated one only when none is dated", () => {
    const performances = [
      { discipline: "A", indices: [{ code: "ISO", valeur: "1" }, { code: "ISO", valeur: "2", annee: 2020 }] },
      { discipline: "B", indices: [{ code: "ISO", valeur: "3", annee: 2020 }, { code: "BTR", valeur: "4", annee: 2024 }] }
    ]
    expect(retainedIndex(performances, "ISO")).toEqual({ index: { code: "ISO", valeur: "2", annee: 2020 }, discipline: "A" })
    expect(retainedIndex([{ indices: [{ code: "ISO", valeur: "1" }, { code: "ISO", valeur: "2" }] }], "ISO")?.index.valeur).toBe("1")
    expect(retainedIndex(performances, "IDR")).toBeUndefined()
    expect(retainedIndex(undefined, "ISO")).toBeUndefined()
  })
})
