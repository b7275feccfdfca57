/**
 * How the bench measures a route (`bench/routes.ts`, design 5), declared on its definition
 * (`annotateMerge(benchPlan(…))`) as its execution cost is: the bench's list of routes is derived
 * from the `Api` value, so a new route is measured with no edit to `bench/`. A route without a
 * plan is measured once, at its plain URI, against the ordinary targets: its path and required
 * query parameters filled with the served description's examples (drawn from the loaded data).
 *
 * A route the load bench must not send (a whole export, a file written once) says why instead.
 */
import * as Context from "effect/Context"

/**
 * The targets of design 5 a measured URI is held to (the bench's `TARGETS`): `ordinary` (p50 ≤ 2 ms,
 * p99 ≤ 10 ms, half the bare server's throughput), `breakdown` (over the whole set: p99 ≤ 20 ms),
 * `deep` (a whole-pedigree computation: p99 ≤ 50 ms).
 */
export type BenchKind = "ordinary" | "breakdown" | "deep"

/** One URI the bench measures: the plain URI with these query values added. */
export interface BenchRequest {
  /** What sets it apart from the route's other URIs (none: the plain URI). */
  readonly name?: string
  /**
   * Query values, literal, or `{name}`: the bench's value of that name (its picks: `race`, `robe`,
   * `namePrefix`, `twoWords`, or the served example of the route's parameter of that name).
   */
  readonly query?: Readonly<Record<string, string>>
  /** Its targets; `ordinary` by default. */
  readonly kind?: BenchKind
}

export interface BenchPlan {
  /** Why the load bench leaves the route out (undefined: it measures it). */
  readonly excluded?: string
  /**
   * The record an `{id}` stands for: `ancestors` (default), a recent record with a deep pedigree;
   * `offspring`, the most prolific parent the bench found (routes that read a record's progeny).
   */
  readonly subject?: "ancestors" | "offspring"
  /**
   * What the route builds on the first use of a value and keeps, when that takes a large part of a
   * second or more: the varied bench draws its records within one value (the sample's most frequent
   * `race`), so that it measures the route's requests rather than one first use after another.
   */
  readonly firstUsePer?: "race"
  /** The URIs measured; by default the plain URI once. */
  readonly requests?: ReadonlyArray<BenchRequest>
}

/** A route's bench plan (the default: measured once, plainly). */
export const Bench = Context.Reference<BenchPlan>("@equides/domain/Bench", { defaultValue: () => ({}) })

/** A route's bench plan, declared on its definition (`annotateMerge`). */
export const benchPlan = (plan: BenchPlan) => Context.make(Bench, plan)

/** A route left out of the load bench, and why (said on its definition, not in `bench/`). */
export const benchExcluded = (why: string) => benchPlan({ excluded: why })
