import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import type { SourceRecord } from "../dataset/SourceRecord.ts"
import { type Noeud, Pedigree } from "../schemas/pedigree.ts"
import { arbitraryRecords, build, rowOf } from "./record.fixtures.ts"
import { idN } from "../testing/ids.ts"
import { noeudsTheoriques, pedigree, PEDIGREE_GENERATIONS_DEFAUT, PEDIGREE_GENERATIONS_MAX } from "./pedigree.ts"

const roundTrips = (value: Pedigree) => {
  const decoded = Schema.decodeUnknownSync(Pedigree)(value)
  expect(JSON.stringify(Schema.encodeSync(Pedigree)(decoded))).toBe(JSON.stringify(value))
}

/** Nodes of a tree, and its depth (0 for a lone root). */
const countNodes = (node: Noeud | undefined): number =>
  node === undefined ? 0 : 1 + countNodes(node.pere) + countNodes(node.mere)
const depthOf = (node: Noeud): number =>
  Math.max(0, ...[node.pere, node.mere].filter((n) => n !== undefined).map((n) => 1 + depthOf(n)))

/**
 * A complete ancestry 3 generations deep: record k (1-based heap numbering) has father 2k and
 * mother 2k+1, for k < 8; records 8..15 have no parents. 15 records in all.
 */
const complete: Array<SourceRecord> = Array.from({ length: 15 }, (_, i) => {
  const k = i + 1
  const parents: Partial<SourceRecord> =
    k < 8 ? { pere: { id: idN(2 * k), nom: `N${2 * k}`, race: "TF" }, mere: { id: idN(2 * k + 1), nom: `N${2 * k + 1}`, race: "TF" } } : {}
  return { id: idN(k), nom: `N${k}`, race: "Trotteur Francais", sexe: k % 2 === 0 ? "Male" : "Femelle", annee_naissance: 2020 - 5 * Math.floor(Math.log2(k)), ...parents }
})

describe("pedigree", () => {
  const data = build(complete)
  const subject = rowOf(data, idN(1))

  it("exports its bounds", () => {
    expect(PEDIGREE_GENERATIONS_DEFAUT).toBe(4)
    expect(PEDIGREE_GENERATIONS_MAX).toBe(8)
    expect([0, 4, 5, 6, 8].map(noeudsTheoriques)).toEqual([1, 31, 63, 127, 511])
  })

  it("builds a complete tree rooted at the subject", () => {
    const p = pedigree(data, subject, 3)
    expect(p.generations).toBe(3)
    expect(p.noeuds).toBe(15)
    expect(p.noeuds_theoriques).toBe(15)
    expect(countNodes(p.arbre)).toBe(15)
    expect(p.arbre).toMatchObject({ id: idN(1), nom: "N1", race: "Trotteur Francais", sexe: "Femelle", annee_naissance: 2020, generation: 0 })
    expect(p.arbre.pere).toMatchObject({ id: idN(2), generation: 1, sexe: "Male" })
    expect(p.arbre.mere?.mere?.pere).toMatchObject({ id: idN(14), generation: 3 })
    expect(Object.keys(p.arbre.mere?.mere?.pere ?? {})).not.toContain("pere")
    roundTrips(p)
  })

  it("uses the default depth and measures the gaps against the theoretical count", () => {
    const p = pedigree(data, subject)
    expect(p.generations).toBe(4)
    expect(p.noeuds).toBe(15)
    expect(p.noeuds_theoriques).toBe(31)
  })

  it("at depth 0 serves the subject alone, without parent keys", () => {
    const p = pedigree(data, subject, 0)
    expect(p).toEqual({
      generations: 0,
      noeuds: 1,
      noeuds_theoriques: 1,
      arbre: { id: idN(1), nom: "N1", race: "Trotteur Francais", sexe: "Femelle", annee_naissance: 2020, generation: 0 }
    })
    roundTrips(p)
  })

  it("stops a branch at a dangling, unreadable or absent parent", () => {
    const d = build([
      { id: idN(1), nom: "SUBJECT", pere: { id: idN(2), nom: "FATHER", race: "PS" }, mere: { id: idN(50), nom: "DANGLING MOTHER" } },
      { id: idN(2), nom: "FATHER", race: "Pur Sang", pere: { id: "unreadable", nom: "X" }, mere: { nom: "NO ID" } }
    ])
    const p = pedigree(d, rowOf(d, idN(1)), 4)
    expect(p.noeuds).toBe(2)
    expect(p.noeuds_theoriques).toBe(31)
    expect("mere" in p.arbre).toBe(false)
    expect(p.arbre.pere).toEqual({ id: idN(2), nom: "FATHER", race: "Pur Sang", sexe: "Indeter", generation: 1 })
    // A node is the parent's own record: its race, not the link's ("PS"); no year, so no key.
    expect(Object.keys(p.arbre.pere ?? {})).not.toContain("annee_naissance")
    // A missing name or race is served as "" on a node, like on the record itself.
    expect(p.arbre).toMatchObject({ nom: "SUBJECT", race: "" })
    roundTrips(p)
  })

  it("unrolls cycles of the source only down to the requested depth", () => {
    // A is its own father and mother: every level is complete, whatever the depth.
    const self = build([{ id: idN(1), nom: "LOOP", pere: { id: idN(1) }, mere: { id: idN(1) } }])
    const deep = pedigree(self, 0, 8)
    expect(deep.noeuds).toBe(511)
    expect(deep.noeuds_theoriques).toBe(511)
    expect(depthOf(deep.arbre)).toBe(8)
    roundTrips(deep)
    // A and B are each other's father: one line, 9 nodes at depth 8.
    const pair = build([
      { id: idN(1), nom: "A", pere: { id: idN(2) } },
      { id: idN(2), nom: "B", pere: { id: idN(1) } }
    ])
    const p = pedigree(pair, rowOf(pair, idN(1)), 8)
    expect(p.noeuds).toBe(9)
    expect(depthOf(p.arbre)).toBe(8)
    expect(p.arbre.pere?.pere?.id).toBe(idN(1))
  })

  it("brings an out-of-range depth back into 0..8", () => {
    const self = build([{ id: idN(1), pere: { id: idN(1) }, mere: { id: idN(1) } }])
    expect(pedigree(self, 0, 30).generations).toBe(8)
    expect(pedigree(self, 0, 30).noeuds).toBe(511)
    expect(pedigree(self, 0, -1).generations).toBe(0)
    expect(pedigree(self, 0, 2.9).generations).toBe(2)
  })

  it("holds its invariants on arbitrary records", () => {
    fc.assert(
      fc.property(arbitraryRecords, fc.integer({ min: 0, max: 8 }), (records, generations) => {
        const d = build(records)
        for (let r = 0; r < d.size; r++) {
          const p = pedigree(d, r, generations)
          roundTrips(p)
          expect(p.noeuds).toBe(countNodes(p.arbre))
          expect(p.noeuds).toBeLessThanOrEqual(p.noeuds_theoriques)
          expect(depthOf(p.arbre)).toBeLessThanOrEqual(generations)
          expect(JSON.stringify(p)).not.toContain("naisseur")
        }
      }),
      { numRuns: 40 }
    )
  })
})
