/**
 * One animal's row of the relationship matrix, a(i, j) for every j at once, by Colleau's indirect
 * method (Colleau 2002, "An indirect approach to the extensive calculation of relationship
 * coefficients", Genet. Sel. Evol. 34:409–421): A·e_i = T·D·Tᵀ·e_i (relationship.ts). Tᵀ·e_i is
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
import type { Postings } from "../dataset/columns.ts"
import { inbreedingCoefficients, mendelianVariance } from "./inbreeding.ts"
import type { OrderedPedigree } from "./ordered.ts"
import { pedigreeGraph } from "./pedigreeGraph.ts"

/**
 * One slot per animal, all zero between rows: a thread keeps them, so that a row costs the animals
 * it reaches, not 9 bytes of fresh memory per animal of the registry.
 */
export interface RowBuffers {
  /** a(i, j) of the row being read; 0 outside the reached animals. */
  readonly row: Float64Array
  readonly seen: Uint8Array
}

export const rowBuffers = (size: number): RowBuffers => ({ row: new Float64Array(size), seen: new Uint8Array(size) })

/** Zeroes the buffers again after a row whose reached animals are `reached`. */
export const clearRow = (buffers: RowBuffers, reached: Int32Array): void => {
  for (let k = 0; k < reached.length; k++) {
    buffers.row[reached[k]] = 0
    buffers.seen[reached[k]] = 0
  }
}

/**
 * Writes a(i, j) for every animal j of `pedigree` into `buffers.row` (zero on entry) and answers
 * the animals it reached (every other a(i, j) is 0), to give to `clearRow` once read.
 * `generation` is each animal's longest line (a kept parent's is smaller) and `children` each
 * animal's children (any superset of the kept links': a child through a link the pedigree does
 * not keep only costs its visit).
 */
export const relationshipRow = (
  pedigree: OrderedPedigree,
  generation: ArrayLike<number>,
  children: Postings,
  i: number,
  buffers: RowBuffers
): Int32Array => {
  const { dam, sire } = pedigree
  const { row, seen } = buffers
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
  for (let v = 0; v < k; v++) row[animals[graph.row[v]]] = up[v]

  // The ancestors and their descendants, then in generation order (a counting sort).
  const reached: Array<number> = []
  let deepest = 0
  for (const v of animals) {
    seen[v] = 1
    reached.push(v)
  }
  for (let at = 0; at < reached.length; at++) {
    const v = reached[at]
    if (generation[v] > deepest) deepest = generation[v]
    for (let c = children.offsets[v], end = children.offsets[v + 1]; c < end; c++) {
      const child = children.rows[c]
      if (seen[child] === 1) continue
      seen[child] = 1
      reached.push(child)
    }
  }
  const start = new Int32Array(deepest + 2)
  for (const v of reached) start[generation[v] + 1]++
  for (let g = 1; g < start.length; g++) start[g] += start[g - 1]
  const ordered = new Int32Array(reached.length)
  for (const v of reached) ordered[start[generation[v]]++] = v

  // Down, parents first: each receives half of each parent's value (0 outside the reached ones).
  for (let n = 0; n < ordered.length; n++) {
    const v = ordered[n]
    const s = sire(v)
    const d = dam(v)
    if (s < 0 && d < 0) continue
    row[v] += 0.5 * ((s >= 0 ? row[s] : 0) + (d >= 0 ? row[d] : 0))
  }
  return ordered
}
