/**
 * A full collection once a thread has had nothing to do for a while: what a burst of work left in
 * the old generation (promoted buffers) is otherwise held until V8's next major collection, which
 * an idle thread does not reach. Used by the server's thread after its last export
 * (`collectAfterExports.ts`); the query workers' is asked by their pool (`QueryPool.ts`), which
 * sends the worker collecting no execution.
 */

export interface IdleCollection {
  /** Runs `collect` `delayMs` from now, unless armed again, cancelled or still busy then. */
  readonly arm: () => void
  readonly cancel: () => void
}

/** `collect` is the thread's `gc` (undefined without `--expose-gc`: nothing is ever armed). */
export const idleCollection = (
  collect: (() => void) | undefined,
  delayMs: number,
  busy: () => boolean = () => false
): IdleCollection => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const cancel = (): void => {
    clearTimeout(timer)
    timer = undefined
  }
  return {
    arm: () => {
      if (collect === undefined) return
      cancel()
      timer = setTimeout(() => {
        timer = undefined
        if (!busy()) collect()
      }, delayMs)
      // A collection waiting does not keep the process alive.
      timer.unref()
    },
    cancel
  }
}
