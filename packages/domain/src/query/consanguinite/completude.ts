/**
 * How much of a pedigree is known, N generations deep (the horse's parents are generation 1): the
 * slots of the pedigree tree filled at each generation, per side, and the distinct individuals
 * filling them. A slot is known when the link names a parent, with a record or without one (a
 * dangling parent: known, but its own parents are not). An ancestor reached twice fills two slots.
 */
import type { Parentage } from "./cutGraph.ts"

/** Parent rows, plus whether a slot is filled at all (a record or a dangling name). */
export interface Lineage extends Parentage {
  readonly sireKnown: (row: number) => boolean
  readonly damKnown: (row: number) => boolean
}

export interface PedigreeFill {
  readonly generations: number
  /** Known slots at generation g (index g − 1) on the sire's side and on the dam's side. */
  readonly sireSide: Int32Array
  readonly damSide: Int32Array
  /** Distinct individuals among the known slots: records once each, dangling parents at every appearance. */
  readonly distinct: number
}

/** The fill of `row`'s pedigree, `generations` deep. */
export const pedigreeFill = (lineage: Lineage, row: number, generations: number): PedigreeFill => {
  const sireSide = new Int32Array(generations)
  const damSide = new Int32Array(generations)
  const records = new Set<number>()
  let dangling = 0
  const slot = (known: boolean, parent: number, generation: number, side: Int32Array): void => {
    if (!known) return
    side[generation - 1]++
    if (parent < 0) {
      dangling++
      return
    }
    records.add(parent)
    if (generation < generations) {
      slot(lineage.sireKnown(parent), lineage.sire[parent], generation + 1, side)
      slot(lineage.damKnown(parent), lineage.dam[parent], generation + 1, side)
    }
  }
  if (generations > 0) {
    slot(lineage.sireKnown(row), lineage.sire[row], 1, sireSide)
    slot(lineage.damKnown(row), lineage.dam[row], 1, damSide)
  }
  return { generations, sireSide, damSide, distinct: records.size + dangling }
}
