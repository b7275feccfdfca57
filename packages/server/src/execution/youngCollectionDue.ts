/**
 * When a query worker collects its young generation after an answer (`serveQueries.ts`): once the
 * external memory (ArrayBuffers: a query's bitsets and row lists, its answer's bytes) has grown by
 * `YOUNG_COLLECTION_EXTERNAL_BYTES` since the last collection. What a cheap execution leaves is
 * left to V8's own scavenges; what a scan leaves (a bitset is 0.55 MiB at 4.45 M rows) is
 * collected within a few answers, before V8's own limit for external memory (tens of MiB a thread)
 * would have it stay resident.
 */
import { getHeapStatistics } from "node:v8"

/** 8 MiB: about 15 bitsets at 4.45 M rows; two workers keep at most 16 MiB of them dead. */
export const YOUNG_COLLECTION_EXTERNAL_BYTES = 8 * 1024 * 1024

export interface YoungCollectionDue {
  /** Whether a young collection is due after the answer just made. */
  readonly now: () => boolean
  /** A collection (young or full) has just ended: count from here. */
  readonly collected: () => void
}

/** The thread's external memory, in bytes (about a microsecond to read). */
const externalMemory = (): number => getHeapStatistics().external_memory

export const youngCollectionDue = (read: () => number = externalMemory, threshold = YOUNG_COLLECTION_EXTERNAL_BYTES): YoungCollectionDue => {
  // The least since the last collection: V8's own collections free some too.
  let after = read()
  return {
    now: () => {
      const current = read()
      after = Math.min(after, current)
      return current - after >= threshold
    },
    collected: () => {
      after = read()
    }
  }
}
