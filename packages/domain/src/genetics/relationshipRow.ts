/**
 * One animal's row of the relationship matrix, a(i, j) for every j at once, by Colleau's indirect
 * method (Colleau 2002, "An indirect approach to the extensive calculation of relationship
 * coefficients", Genet. Sel. Evol. 34:409–421): A·e_i = T·D·Tᵀ·e_i (groupCoancestry.ts). Tᵀ·e_i is
 * non-zero only on i and its ancestors, so the sweep up and the scaling by D visit them alone; T·…
 * is non-zero only on them and their descendants, so the sweep down visits those alone (up from
 * her ancestors, then down to their descendants), in generation order; every other a(i, j) is 0.
 * The coancestry of i with j is a(i, j)/2: for a mare, the F of her foal by every stallion of the
 * registry in one pass (issue 28).
 *
 * D needs the F of i's ancestors. The load keeps F in single precision (seven digits); here they
 * are computed again in double precision over i's ancestors alone (an ancestor's F depends on its
 * own ancestors only: inbreeding.ts on that sub-pedigree), so that the row is exact to rounding.
 */
import { bitRank, hasBit } from "../dataset/bits.ts"
import type { Postings } from "../dataset/columns.ts"
import { inbreedingCoefficients, mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"
import { rankAnimals, Reached } from "./reachedAnimals.ts"

/**
 * A row of A held on the animals it reaches alone (i, its ancestors and their descendants: from a
 * few dozen to some 70 000 of the 4.45 M records for a mare of the full extract), never one slot
 * per animal: a query thread keeps nothing of a row once read, where two buffers of the
 * registry's size (9 bytes a record) stayed resident in every worker. The bitset and its word
 * counts cost n/8 bytes each for the time of one row.
 */
export interface RelationshipRow {
  /** The reached animals as a bitset over every animal: an animal not reached reads 0 at one word. */
  readonly reached: Uint32Array
  /** `bitRanks(reached)`: a reached animal's slot in `rows` and `values` at one word more. */
  readonly ranks: Uint32Array
  /** The reached animals, ascending. */
  readonly rows: Uint32Array
  /** a(i, rows[k]). */
  readonly values: Float64Array
}

/** a(i, j): 0 when the row does not reach j. */
export const relationshipAt = (row: RelationshipRow, j: number): number =>
  hasBit(row.reached, j) ? row.values[bitRank(row.reached, row.ranks, j)] : 0

/**
 * a(i, j) for every animal j of `pedigree` (`size` animals). `generation` is each animal's longest
 * line (a kept parent's is smaller) and `children` each animal's children (any superset of the kept
 * links': a child through a link the pedigree does not keep only costs its visit).
 */
export const relationshipRow = (
  pedigree: OrderedPedigree,
  generation: ArrayLike<number>,
  children: Postings,
  i: number
): RelationshipRow => {
  const { dam, sire } = pedigree
  // i and its ancestors, numbered locally in the order met.
  const local = new Map<number, number>([[i, 0]])
  const animals: Array<number> = [i]
  for (let k = 0; k < animals.length; k++) {
    const v = animals[k]
    for (const p of [sire(v), dam(v)]) {
      if (p >= 0 && !local.has(p)) {
        local.set(p, animals.length)
        animals.push(p)
      }
    }
  }
  const k = animals.length
  const localSire = new Int32Array(k)
  const localDam = new Int32Array(k)
  for (let a = 0; a < k; a++) {
    const s = sire(animals[a])
    const d = dam(animals[a])
    localSire[a] = s < 0 ? -1 : local.get(s)!
    localDam[a] = d < 0 ? -1 : local.get(d)!
  }
  // The kept links are acyclic: the sub-pedigree's graph drops none, only orders it.
  const graph = pedigreeGraph({ sire: localSire, dam: localDam })
  const F = inbreedingCoefficients(graph)

  // Up (youngest first: each node passes half its share to each parent), then scaled by D.
  const up = new Float64Array(k)
  up[graph.node[0]] = 1
  for (let v = k - 1; v >= 0; v--) {
    const share = up[v]
    const s = graph.sire[v]
    const d = graph.dam[v]
    if (share !== 0) {
      if (s >= 0) up[s] += 0.5 * share
      if (d >= 0) up[d] += 0.5 * share
    }
    up[v] = share * mendelianVariance(F, s, d)
  }

  // The ancestors and their descendants, numbered by their rank among the reached rows.
  const reached = new Reached(pedigree.size, 4 * k)
  for (const v of animals) reached.add(v)
  for (let at = 0; at < reached.size; at++) {
    const v = reached.at(at)
    for (let c = children.offsets[v], end = children.offsets[v + 1]; c < end; c++) reached.add(children.rows[c])
  }
  const { dam: reachedDam, ordered, ranks, rows, sire: reachedSire } = rankAnimals(pedigree, generation, reached)
  const values = new Float64Array(rows.length)
  for (let v = 0; v < k; v++) values[bitRank(reached.bits, ranks, animals[graph.row[v]])] = up[v]

  // Down, parents first: each receives half of each reached parent's value (0 outside them).
  for (let n = 0; n < ordered.length; n++) {
    const at = ordered[n]
    const s = reachedSire[at]
    const d = reachedDam[at]
    if (s < 0 && d < 0) continue
    values[at] += 0.5 * ((s >= 0 ? values[s] : 0) + (d >= 0 ? values[d] : 0))
  }
  return { reached: reached.bits, ranks, rows, values }
}
