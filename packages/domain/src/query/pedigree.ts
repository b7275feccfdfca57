/** Ancestry tree of one equid (`GET /v1/equides/{id}/pedigree`). */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import type { Noeud, Pedigree } from "../schemas/pedigree.ts"
import { idOf, type Mutable, nomOf, raceOf, sexeOf } from "./record.ts"

/** Depth served when `generations` is not given. */
export const PEDIGREE_GENERATIONS_DEFAUT = 4
/** Deepest pedigree served (the server answers 400 above it). */
export const PEDIGREE_GENERATIONS_MAX = 8

/** 2^(generations+1) − 1: the nodes of a complete pedigree at this depth (31 at 4, 511 at 8). */
export const noeudsTheoriques = (generations: number): number => 2 ** (generations + 1) - 1

/** `generations` truncated and brought back into 0..8 (the default when not a number). */
export const pedigreeDepth = (generations: number): number =>
  Number.isFinite(generations)
    ? Math.min(PEDIGREE_GENERATIONS_MAX, Math.max(0, Math.trunc(generations)))
    : PEDIGREE_GENERATIONS_DEFAUT

/**
 * The pedigree of `row`, `generations` deep (0 = the subject alone).
 *
 * The tree is rooted at the subject (generation 0); `pere` and `mere` are followed through
 * resolved rows only, so a branch stops at an unknown, unreadable or dangling parent. A node is the
 * parent's own record (its `race` is the record's, not the link's). `noeuds` counts the nodes of
 * the tree, subject included, an ancestor reached twice (inbreeding) counting twice like in
 * `noeuds_theoriques`. The depth bound makes cycles in the source (a record among its own
 * ancestors) harmless: they are unrolled down to the requested depth, never followed further.
 *
 * The server validates `generations`; here it is truncated and brought back into 0..8 anyway, so
 * that no call can build more than 511 nodes.
 */
export const pedigree = (data: DatasetData, row: number, generations: number = PEDIGREE_GENERATIONS_DEFAUT): Pedigree => {
  const depth = pedigreeDepth(generations)
  const pere = data.links.pere.row
  const mere = data.links.mere.row
  let count = 0
  const node = (r: number, generation: number): Noeud => {
    count++
    const out: Mutable<Noeud> = { id: idOf(data, r), nom: nomOf(data, r), race: raceOf(data, r), sexe: sexeOf(data, r) }
    const year = data.year[r]
    if (year !== NO_YEAR) out.annee_naissance = year
    out.generation = generation
    if (generation < depth) {
      if (pere[r] >= 0) out.pere = node(pere[r], generation + 1)
      if (mere[r] >= 0) out.mere = node(mere[r], generation + 1)
    }
    return out
  }
  const arbre = node(row, 0)
  return { generations: depth, noeuds: count, noeuds_theoriques: noeudsTheoriques(depth), arbre }
}
