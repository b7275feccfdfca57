/** Seeded draws for the corpora, on the generator's own PRNG (same seed, same corpora, on any machine). */
import type { Rng } from "../../packages/ingest/src/generate/prng.ts"

/** A shuffled copy (Fisher–Yates). */
export const shuffle = <A>(rng: Rng, items: ReadonlyArray<A>): Array<A> => {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.below(i + 1)
    const kept = copy[i]
    copy[i] = copy[j]
    copy[j] = kept
  }
  return copy
}
