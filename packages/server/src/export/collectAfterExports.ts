/**
 * A full collection of the server's thread once no export has run for a while. An export's body
 * is tens of thousands of 32 KiB chunks; those that outlived a scavenge (the socket still held
 * them) wait in the old generation for V8's next major collection, which a server answering small
 * requests reaches late: 13–16 MiB of resident memory stayed after two whole exports (issue 30:
 * none after them), all of it given back by one full collection. The pause (a few tens of ms on
 * the server's heap of about 60 MiB) comes once, after the last export of a burst.
 */
import { idleCollection } from "../execution/idleCollection.ts"

/** How long no export has run before the collection. */
export const COLLECT_AFTER_EXPORTS_MS = 2_000

/**
 * The function an export calls when it ends: with none running (`running()`), it arms the
 * collection, which runs `collect` (the server's `gc`, undefined without `--expose-gc`) if still
 * none runs when it fires; an export ending later arms it again.
 */
export const collectAfterExports = (
  running: () => number,
  collect: (() => void) | undefined,
  delayMs: number = COLLECT_AFTER_EXPORTS_MS
): (() => void) => {
  const idle = idleCollection(collect, delayMs, () => running() > 0)
  return () => {
    if (running() === 0) idle.arm()
  }
}
