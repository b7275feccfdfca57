/**
 * A reference population's diversity (design §6): f_e (founders.ts), f_a with the ancestors it
 * retains (ancestors.ts) and the generation interval (interval.ts), over one ancestry
 * (ancestry.ts) and one pass of gene contributions (contributions.ts).
 *
 * The whole extract's is computed at load and held in the Dataset (`DatasetData.wholeDiversity`,
 * typed arrays: shared with the query threads and in the snapshot). Its ancestry is most of the
 * registry (1.2 M animals at 4.45 M records): 0.3–0.4 s on one core, which a first
 * `/v1/stats/genetique` without `race` paid in each worker (issue 27: ≤ 500 ms for a first use,
 * year table included). A breed's is a fraction of that and is computed by the thread that answers.
 */
import { type ChosenAncestor, ancestorContributions } from "./ancestors.ts"
import { ancestryOf } from "./ancestry.ts"
import { geneContributions } from "./contributions.ts"
import { founderContributions } from "./founders.ts"
import { generationInterval } from "./interval.ts"
import type { OrderedPedigree } from "./ordered.ts"

/** Ancestors listed in `principaux_ancetres`. */
export const PRINCIPAUX_ANCETRES = 20

export interface Diversity {
  /** f_e; null for an empty population. */
  readonly founders: number | null
  /** f_a; null when no ancestor contributes. */
  readonly ancestors: number | null
  /** How many ancestors f_a retained. */
  readonly retained: number
  /** Σ p_k over them. */
  readonly explained: number
  /** The generation interval; null when no member and parent both have a birth year. */
  readonly interval: number | null
  /** The first PRINCIPAUX_ANCETRES ancestors retained (rows), in the order chosen. */
  readonly major: ReadonlyArray<ChosenAncestor>
}

/** The diversity of the reference population `members` (rows), `year` each row's birth year (`noYear`: none). */
export const diversityOf = (pedigree: OrderedPedigree, year: Int32Array, noYear: number, members: ArrayLike<number>): Diversity => {
  const ancestry = ancestryOf(pedigree, members)
  const contributions = geneContributions(ancestry)
  const founders = founderContributions(ancestry, contributions)
  const ancestors = ancestorContributions(ancestry, contributions)
  return {
    founders: founders.effective,
    ancestors: ancestors.effective,
    retained: ancestors.chosen.length,
    explained: ancestors.explained,
    interval: generationInterval(pedigree, year, noYear, members),
    major: ancestors.chosen.slice(0, PRINCIPAUX_ANCETRES)
  }
}

/** A `Diversity` as a Dataset holds it; `figures` empty when there is none (no reference population). */
export interface HeldDiversity {
  /** f_e, f_a, retained, explained, interval, NaN standing for null. */
  readonly figures: Float64Array
  readonly majorRows: Int32Array
  readonly majorContributions: Float64Array
}

const orNaN = (x: number | null): number => x ?? Number.NaN
const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x)

export const heldDiversity = (diversity: Diversity | null): HeldDiversity =>
  diversity === null
    ? { figures: new Float64Array(0), majorRows: new Int32Array(0), majorContributions: new Float64Array(0) }
    : {
      figures: Float64Array.of(orNaN(diversity.founders), orNaN(diversity.ancestors), diversity.retained, diversity.explained, orNaN(diversity.interval)),
      majorRows: Int32Array.from(diversity.major, ({ node }) => node),
      majorContributions: Float64Array.from(diversity.major, ({ contribution }) => contribution)
    }

export const diversityHeld = ({ figures, majorContributions, majorRows }: HeldDiversity): Diversity | null =>
  figures.length === 0 ? null : {
    founders: orNull(figures[0]),
    ancestors: orNull(figures[1]),
    retained: figures[2],
    explained: figures[3],
    interval: orNull(figures[4]),
    major: Array.from(majorRows, (node, k) => ({ node, contribution: majorContributions[k] }))
  }
