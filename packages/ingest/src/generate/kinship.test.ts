import { describe, expect, it } from "@effect/vitest"
import { foalInbreeding } from "@equides/domain"
import { BREEDS } from "./breeds.ts"
import { generatePopulation } from "./generateExtract.ts"
import { shortestLoopOf, StudBook } from "./kinship.ts"
import { Rng } from "./prng.ts"

describe("matings between relatives", () => {
  it("a related sire always shares an ancestor with the dam, and has a breeding age", () => {
    const { breed, count, dam, sire, year } = generatePopulation({ seed: 7, count: 5000 })
    // A stud book replayed over the generated graph: every record is its parents' child, every male stands at stud.
    const book = new StudBook(sire, dam, year)
    for (let i = 0; i < count; i++) {
      book.addChild(i)
      book.addStallion(i)
    }
    const rng = new Rng(7, 0, 0x99)
    let found = 0
    for (let mare = 0; mare < count; mare++) {
      if (dam[mare] < 0 && sire[mare] < 0) continue
      const born = year[mare] + 8
      const stallion = book.relatedSire(mare, born, [3, 25], shortestLoopOf(BREEDS[breed[mare]].kinship), rng)
      if (stallion < 0) continue
      found++
      expect(born - year[stallion]).toBeGreaterThanOrEqual(3)
      expect(born - year[stallion]).toBeLessThanOrEqual(25)
      expect(foalInbreeding({ sire, dam }, stallion, mare, 12), `${stallion} × ${mare}`).toBeGreaterThan(0)
    }
    expect(found).toBeGreaterThan(100)
  })

  it("leave most horses with a known pedigree inbred at 8 generations, a few per cent above 0.125", () => {
    const { count, dam, sire } = generatePopulation({ seed: 1, count: 20_000 })
    // What the Dataset will hold: parents never written (dangling) have no record.
    const known = (parent: number) => (parent < count ? parent : -1)
    const parentage = { sire: sire.map(known), dam: dam.map(known) }
    let withPedigree = 0
    let inbred = 0
    let high = 0
    for (let row = 0; row < count; row++) {
      if (parentage.sire[row] < 0 && parentage.dam[row] < 0) continue
      withPedigree++
      const f = foalInbreeding(parentage, parentage.sire[row], parentage.dam[row], 8)
      if (f > 0) inbred++
      if (f > 0.125) high++
    }
    // The registry: 47 % of all horses inbred, nearly two thirds of those with a parent on file.
    expect(inbred / withPedigree).toBeGreaterThan(0.5)
    expect(inbred / withPedigree).toBeLessThan(0.8)
    // 3.6 % at full scale; a small extract's breeds have dozens of stallions, so drift makes it more.
    expect(high / withPedigree).toBeGreaterThan(0.01)
    expect(high / withPedigree).toBeLessThan(0.3)
  })
})

describe("inbreeding by breed and year", () => {
  it("rises over the years, and the closed stud books (Arabe, Trotteur Francais) are more inbred than the Selle Francais", () => {
    const { breed, count, dam, sire, year } = generatePopulation({ seed: 1, count: 40_000 })
    const known = (parent: number) => (parent < count ? parent : -1)
    const parentage = { sire: sire.map(known), dam: dam.map(known) }
    // The extract begins in 1975: 12 generations reach every known ancestor, F over all generations.
    const meanF = (member: (row: number) => boolean): number => {
      let n = 0
      let sum = 0
      for (let row = 0; row < count; row++) {
        if (!member(row)) continue
        n++
        if (parentage.sire[row] >= 0 && parentage.dam[row] >= 0) sum += foalInbreeding(parentage, parentage.sire[row], parentage.dam[row], 12)
      }
      return sum / n
    }
    const breedIndex = (label: string) => BREEDS.findIndex((b) => b.label === label)
    const recent = (label: string) => meanF((row) => breed[row] === breedIndex(label) && year[row] >= 2010)
    expect(meanF((row) => year[row] >= 2015)).toBeGreaterThan(meanF((row) => year[row] >= 1990 && year[row] < 2000))
    expect(recent("Arabe")).toBeGreaterThan(recent("Selle Francais"))
    expect(recent("Trotteur Francais")).toBeGreaterThan(recent("Selle Francais"))
  })
})
