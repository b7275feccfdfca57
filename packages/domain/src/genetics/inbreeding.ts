/**
 * Wright's F of every node over all known generations, by Colleau's indirect method as modified by
 * Sargolzaei, Iwaisaki & Colleau 2005 ("A fast algorithm for computing inbreeding coefficients in
 * large populations", J. Anim. Breed. Genet. 122:325–331), after Colleau 2002 (Genet. Sel. Evol.
 * 34:409–421).
 *
 * The relationship matrix is A = T·D·Tᵀ, where T = (I − P)⁻¹ sends each node half of each parent and
 * D is diagonal: D_i = 1/2 − (F_s + F_d)/4 with both parents known, 3/4 − F_p/4 with one, 1 with
 * none. The column of a sire s, A·e_s, is one sweep up s's ancestors (Tᵀ·e_s: each ancestor's share
 * of s), a scaling by D, and one sweep down (T·…) through the ancestors of its mates; the F of each
 * foal of s out of a dam d is then a(s, d)/2. The whole column serves every foal of s at once.
 *
 * The column needs the F of s's ancestors alone (they make D on its way up; the way down, T·x, reads
 * no F). Nodes are numbered by generation (pedigreeGraph.ts) and visited in order, so when the first
 * foal i of s is reached, s and its ancestors are computed: one batch takes every foal of s, whatever
 * its dam, and s's ancestors are swept once.
 */
import type { PedigreeGraph } from "./pedigreeGraph.ts"

/** D_i of the decomposition A = T·D·Tᵀ, from the F of i's sire s and dam d (-1: unknown). */
export const mendelianVariance = (inbreeding: Float32Array | Float64Array, s: number, d: number): number => {
  if (s >= 0 && d >= 0) return 0.5 - 0.25 * (inbreeding[s] + inbreeding[d])
  if (s >= 0) return 0.75 - 0.25 * inbreeding[s]
  if (d >= 0) return 0.75 - 0.25 * inbreeding[d]
  return 1
}

/**
 * Collects the nodes `seeds[0..count)` and all their ancestors into `out` (from index 0), marking
 * them with `stamp`, and returns how many, ordered by generation (parents first): a counting sort on
 * the longest line, as `scratch` (one slot per node) allows, instead of a comparison sort.
 */
const ancestorsOf = (
  graph: PedigreeGraph,
  seeds: Int32Array,
  count: number,
  marks: Int32Array,
  stamp: number,
  scratch: Int32Array,
  levels: Int32Array,
  out: Int32Array
): number => {
  let size = 0
  let top = 0
  let deepest = 0
  const { dam, longestLine, sire } = graph
  for (let k = 0; k < count; k++) {
    const seed = seeds[k]
    if (marks[seed] === stamp) continue
    marks[seed] = stamp
    scratch[size++] = seed
  }
  // `scratch` doubles as the walk's queue: every collected node is expanded once.
  while (top < size) {
    const v = scratch[top++]
    const line = longestLine[v]
    if (line > deepest) deepest = line
    levels[line + 1]++
    const s = sire[v]
    const d = dam[v]
    if (s >= 0 && marks[s] !== stamp) {
      marks[s] = stamp
      scratch[size++] = s
    }
    if (d >= 0 && marks[d] !== stamp) {
      marks[d] = stamp
      scratch[size++] = d
    }
  }
  for (let g = 1; g <= deepest + 1; g++) levels[g] += levels[g - 1]
  for (let k = 0; k < size; k++) {
    const v = scratch[k]
    out[levels[longestLine[v]]++] = v
  }
  levels.fill(0, 0, deepest + 2)
  return size
}

/** F of every node of `graph` (indexed by node). */
export const inbreedingCoefficients = (graph: PedigreeGraph): Float64Array => {
  const n = graph.size
  const { dam, sire } = graph
  const inbreeding = new Float64Array(n)
  const done = new Uint8Array(n)

  // Foals of each sire with a known dam, ascending (nodes are visited in order).
  const foalStart = new Int32Array(n + 1)
  for (let v = 0; v < n; v++) if (sire[v] >= 0 && dam[v] >= 0) foalStart[sire[v] + 1]++
  for (let v = 0; v < n; v++) foalStart[v + 1] += foalStart[v]
  const foals = new Int32Array(foalStart[n])
  const fill = foalStart.slice(0, n)
  for (let v = 0; v < n; v++) if (sire[v] >= 0 && dam[v] >= 0) foals[fill[sire[v]]++] = v

  const up = new Float64Array(n) // Tᵀ·e_s, then D·Tᵀ·e_s
  const down = new Float64Array(n) // T·D·Tᵀ·e_s on the mates' ancestors
  const marks = new Int32Array(n).fill(-1)
  const sireSide = new Int32Array(n)
  const mateSide = new Int32Array(n)
  const mates = new Int32Array(n)
  const one = new Int32Array(1)
  const scratch = new Int32Array(n)
  let deepest = 0
  for (let v = 0; v < n; v++) if (graph.longestLine[v] > deepest) deepest = graph.longestLine[v]
  const levels = new Int32Array(deepest + 2)
  let stamp = 0

  for (let i = 0; i < n; i++) {
    if (done[i] === 1) continue
    done[i] = 1
    const s = sire[i]
    if (s < 0 || dam[i] < 0) continue // an unknown parent: F = 0

    // The batch: every foal of s (i is the first of them).
    const start = foalStart[s]
    const end = foalStart[s + 1]
    let mateCount = 0
    for (let k = start; k < end; k++) mates[mateCount++] = dam[foals[k]]

    // Up: each ancestor's share of s, youngest first, then scaled by D.
    one[0] = s
    const sireCount = ancestorsOf(graph, one, 1, marks, stamp++, scratch, levels, sireSide)
    up[s] = 1
    for (let k = sireCount - 1; k >= 0; k--) {
      const v = sireSide[k]
      const share = up[v]
      if (sire[v] >= 0) up[sire[v]] += 0.5 * share
      if (dam[v] >= 0) up[dam[v]] += 0.5 * share
      up[v] = share * mendelianVariance(inbreeding, sire[v], dam[v])
    }
    // Down through the mates' ancestors, oldest first: a(s, v) for each of them.
    const mateCountAll = ancestorsOf(graph, mates, mateCount, marks, stamp++, scratch, levels, mateSide)
    for (let k = 0; k < mateCountAll; k++) {
      const v = mateSide[k]
      const ps = sire[v]
      const pd = dam[v]
      down[v] = up[v] + 0.5 * ((ps >= 0 ? down[ps] : 0) + (pd >= 0 ? down[pd] : 0))
    }
    for (let k = start; k < end; k++) {
      const foal = foals[k]
      inbreeding[foal] = 0.5 * down[dam[foal]]
      done[foal] = 1
    }
    for (let k = 0; k < sireCount; k++) up[sireSide[k]] = 0
    for (let k = 0; k < mateCountAll; k++) down[mateSide[k]] = 0
  }
  return inbreeding
}
