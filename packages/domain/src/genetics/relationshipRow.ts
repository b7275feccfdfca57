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
 * The sweep down holds only the descendants that have children of their own. A descendant without
 * (most of them: four in five of the 150 000–350 000 a mare of the full extract reaches) is nobody's
 * parent, so no other value needs its own, and it is read from its parents' when asked:
 * a(i, j) = (a(i, sire) + a(i, dam))/2 for any j neither i nor one of her ancestors (Henderson's
 * recursion, which the sweep down applies to every other animal). So the walk down reads no
 * progeny offsets of a childless animal, a random read of the registry's index per animal met,
 * what it paid most for. The walk alone (`relativesOf`) tells who is no relative at all, which is
 * most often all a ranking needs. At full scale, for the mares costing most: the row 49–65 ms
 * before, the relatives 13–15 ms and the row 16–20 ms after (one thread, the machine shared).
 *
 * One pair's a(i, j) alone (`pairRelationship`: a test mating's F over all generations) needs no
 * walk down to i's relatives: the same up sweep, then the sweep down over i's and j's ancestries.
 *
 * D needs the F of i's ancestors. The load keeps F in single precision (seven digits); here they
 * are computed again in double precision over i's ancestors alone (an ancestor's F depends on its
 * own ancestors only: inbreeding.ts on that sub-pedigree), so that the row is exact to rounding.
 */
import { bitRank, hasBit, wordsFor } from "../dataset/bits.ts"
import type { Postings } from "../dataset/columns.ts"
import { inbreedingCoefficients, mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { type PedigreeGraph, pedigreeGraph } from "./pedigreeGraph.ts"
import { rankAnimals, Reached } from "./reachedAnimals.ts"

/**
 * A row of A held on the animals it holds alone (i, its ancestors and those of their descendants
 * that have children: from a few dozen to some 70 000 of the 4.45 M records for a mare of the full
 * extract), never one slot per animal: a query thread keeps nothing of a row once read, where two
 * buffers of the registry's size (9 bytes a record) stayed resident in every worker. The bitsets
 * and their word counts cost n/8 bytes each for the time of one row.
 */
export interface RelationshipRow {
  /** The held animals as a bitset over every animal. */
  readonly reached: Uint32Array
  /** `Relatives.marks`: an animal no relative of i reads 0 at one word, without reading its parents. */
  readonly marks: Uint32Array
  /** `bitRanks(reached)`: a held animal's slot in `rows` and `values` at one word more. */
  readonly ranks: Uint32Array
  /** The held animals, ascending. */
  readonly rows: Uint32Array
  /** a(i, rows[k]). */
  readonly values: Float64Array
  /** The pedigree's kept parents, for an animal the row does not hold. */
  readonly pedigree: OrderedPedigree
}

const heldAt = (row: RelationshipRow, j: number): number =>
  j >= 0 && hasBit(row.reached, j) ? row.values[bitRank(row.reached, row.ranks, j)] : 0

/** a(i, j): 0 for no relative of i, held, or from j's parents (a childless descendant). */
export const relationshipAt = (row: RelationshipRow, j: number): number =>
  !marked(row.marks, j)
    ? 0
    : hasBit(row.reached, j)
    ? row.values[bitRank(row.reached, row.ranks, j)]
    : 0.5 * (heldAt(row, row.pedigree.sire(j)) + heldAt(row, row.pedigree.dam(j)))

/** The animals with at least one child in `children`, as a bitset over every animal (a thread builds it once). */
export const animalsWithChildren = (children: Postings): Uint32Array => {
  const n = children.offsets.length - 1
  const bits = new Uint32Array(wordsFor(n))
  for (let v = 0; v < n; v++) if (children.offsets[v + 1] !== children.offsets[v]) bits[v >>> 5] |= 1 << (v & 31)
  return bits
}

/**
 * i's relatives before any value: i and its ancestors, and every descendant of theirs (those with
 * children held for the sweep down). Enough alone to tell who is no relative of i: a(i, j) = 0
 * exactly for them, every other a(i, j) being positive (a stallion ranking's page is most often
 * made of them alone, `etalons.ts`).
 */
export interface Relatives {
  /** i, then its ancestors in the order met. */
  readonly ancestors: ReadonlyArray<number>
  /** i, its ancestors and their descendants with children, in the order met: the animals a row holds. */
  readonly held: Int32Array
  /**
   * Two bitsets over every animal, interleaved word by word: word 2w the relatives (the held and
   * every child of one), word 2w + 1 the animals with children. The walk down asks both of every
   * child it meets, and one cache line answers both (a third faster than two bitsets apart).
   */
  readonly marks: Uint32Array
}

/** Whether `j` is a relative of i (a(i, j) > 0), read in `marks` (`Relatives`). */
const marked = (marks: Uint32Array, j: number): boolean => ((marks[2 * (j >>> 5)] >>> (j & 31)) & 1) === 1

/** Whether `j` is a relative of i (a(i, j) > 0). */
export const isRelative = (relatives: Relatives, j: number): boolean => marked(relatives.marks, j)

/** i (and the other animals given, each once), then their ancestors in the order met (a walk up the kept links). */
export const lineOf = (pedigree: Pick<OrderedPedigree, "sire" | "dam">, i: number, ...others: ReadonlyArray<number>): Array<number> => {
  const met = new Set<number>([i, ...others])
  const line: Array<number> = [...met]
  for (let k = 0; k < line.length; k++) {
    for (const p of [pedigree.sire(line[k]), pedigree.dam(line[k])]) {
      if (p >= 0 && !met.has(p)) {
        met.add(p)
        line.push(p)
      }
    }
  }
  return line
}

/**
 * Whether j is no relative of i (a(i, j) = 0), `line` being i and its ancestors (`lineOf`): j
 * and its own ancestors meet none of them. A walk up j's ancestry, stopped at the first animal
 * of i's line: for the few hundred stallions a ranking's page reads, much less than the walk
 * down to every relative of i (`relativesOf`), when they are old stallions with short pedigrees.
 */
export const noRelative = (pedigree: Pick<OrderedPedigree, "sire" | "dam">, line: ReadonlySet<number>, j: number): boolean => {
  if (line.has(j)) return false
  const walk: Array<number> = [j]
  const met = new Set<number>(walk)
  for (let k = 0; k < walk.length; k++) {
    for (const p of [pedigree.sire(walk[k]), pedigree.dam(walk[k])]) {
      if (p < 0 || met.has(p)) continue
      if (line.has(p)) return false
      met.add(p)
      walk.push(p)
    }
  }
  return true
}

/**
 * The relatives of i in `pedigree`: `children` lists each animal's children (any superset of the
 * kept links': a child through a link the pedigree does not keep only costs its visit) and
 * `parents` the animals with children there (`animalsWithChildren`).
 */
export const relativesOf = (pedigree: OrderedPedigree, children: Postings, parents: Uint32Array, i: number): Relatives => {
  const ancestors = lineOf(pedigree, i)
  const marks = new Uint32Array(2 * parents.length)
  for (let w = 0; w < parents.length; w++) marks[2 * w + 1] = parents[w]
  let held = new Int32Array(Math.max(64, 4 * ancestors.length))
  let size = 0
  const hold = (v: number): void => {
    if (size === held.length) {
      const grown = new Int32Array(2 * size)
      grown.set(held)
      held = grown
    }
    held[size++] = v
  }
  for (const v of ancestors) {
    marks[2 * (v >>> 5)] |= 1 << (v & 31)
    hold(v)
  }
  // Down: a child met once is a relative; it is held, and its own children met, only when it has some.
  for (let at = 0; at < size; at++) {
    const v = held[at]
    for (let c = children.offsets[v], end = children.offsets[v + 1]; c < end; c++) {
      const child = children.rows[c]
      const word = 2 * (child >>> 5)
      const bit = 1 << (child & 31)
      const related = marks[word]
      if ((related & bit) !== 0) continue
      marks[word] = related | bit
      if ((marks[word + 1] & bit) !== 0) hold(child)
    }
  }
  return { ancestors, held: held.subarray(0, size), marks }
}

/**
 * D·Tᵀ·e_i on the sub-pedigree of `animals`: i first, then any animals closed upwards (i's
 * ancestors, and others with all theirs: `lineOf`), numbered locally in that order. `up` is
 * indexed by the nodes of `graph` (the sub-pedigree ordered by generation; `graph.row[v]` is a
 * local number): i's share of each of its ancestors, youngest first, scaled by D; 0 elsewhere.
 */
const scaledShares = (pedigree: Pick<OrderedPedigree, "sire" | "dam">, animals: ReadonlyArray<number>): { readonly graph: PedigreeGraph; readonly up: Float64Array } => {
  const { dam, sire } = pedigree
  const local = new Map<number, number>()
  for (let a = 0; a < animals.length; a++) local.set(animals[a], a)
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
  return { graph, up }
}

/**
 * a(i, j) of one pair, through the two ancestries alone: D·Tᵀ·e_i swept up i's, then T·… swept
 * down, oldest first, over i's and j's (a(i, v) = (D·Tᵀ·e_i)_v + (a(i, sire) + a(i, dam))/2 for
 * every v, the same recursion as the row's sweep down), read at j: the two ancestries alone, where
 * the row (`relationshipRow`) holds every descendant of i's ancestors that has children. A test
 * mating's page for the warm-up's related pair at full scale: 120 ms a render with the row, 4.1 ms
 * over HTTP (p50) with the pair.
 */
export const pairRelationship = (pedigree: Pick<OrderedPedigree, "sire" | "dam">, i: number, j: number): number => {
  const animals = lineOf(pedigree, i, j)
  const { graph, up: a } = scaledShares(pedigree, animals)
  for (let v = 0; v < graph.size; v++) {
    const s = graph.sire[v]
    const d = graph.dam[v]
    a[v] += 0.5 * ((s >= 0 ? a[s] : 0) + (d >= 0 ? a[d] : 0))
  }
  return a[graph.node[animals.indexOf(j)]]
}

/** a(i, j) for every animal j of `pedigree`, i's `relatives` being `relativesOf` it. */
export const relationshipRow = (pedigree: OrderedPedigree, relatives: Relatives): RelationshipRow => {
  const { ancestors: animals, held, marks } = relatives
  const { graph, up } = scaledShares(pedigree, animals)
  const k = animals.length

  // The held animals numbered by their rank among them.
  const reached = new Reached(pedigree.size, held.length)
  for (let at = 0; at < held.length; at++) reached.add(held[at])
  const { dam: reachedDam, ordered, ranks, rows, sire: reachedSire } = rankAnimals(pedigree, reached)
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
  return { reached: reached.bits, marks, ranks, rows, values, pedigree }
}
