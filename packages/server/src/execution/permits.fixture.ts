/**
 * Permits a test grants to a fixture worker through shared memory (`cells[at]` raised and notified,
 * `grantIn` in the tests): the worker's thread blocks (`Atomics.wait`, really busy, as under a heavy
 * query or a long collection) until one is there, and takes it.
 */
export const takePermit = (cells: Int32Array, at: number): void => {
  for (;;) {
    const available = Atomics.load(cells, at)
    if (available === 0) Atomics.wait(cells, at, 0)
    else if (Atomics.compareExchange(cells, at, available, available - 1) === available) return
  }
}
