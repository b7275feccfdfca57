/**
 * A row's depth as a code (columns.ts): each distinct pair of t in single precision and complete
 * generations (saturated at 255) numbered in the order met; and a row's F as a code into its
 * distinct single-precision values, the same way (a pair whose second half is 0). The pairs are
 * found in an open-addressing table on the pair's bits (linear probing, kept under half full): a
 * `Map` keyed on the pair cost about 290 ms at 4.45 M records, its keys being doubles above the
 * small-integer range.
 */

export interface DepthCodes {
  /** Code of each row. */
  readonly codes: Uint32Array
  /** t (single precision) and complete generations of each code. */
  readonly equivalent: Float32Array
  readonly complete: Uint8Array
}

const EMPTY = -1

export interface InbreedingCodes {
  /** Code of each row. */
  readonly codes: Uint32Array
  /** F (single precision) of each code. */
  readonly values: Float32Array
}

/** The codes of the rows `row[v]` whose t is `equivalent[v]` and complete generations `complete[v]`. */
export const depthCodes = (row: Int32Array, equivalent: Float64Array, complete: Int32Array): DepthCodes => {
  const { codes, first, second } = pairCodes(row, equivalent, complete)
  return { codes, equivalent: first, complete: second }
}

/** The codes of the rows `row[v]` whose F is `inbreeding[v]`. */
export const inbreedingCodes = (row: Int32Array, inbreeding: Float64Array): InbreedingCodes => {
  const { codes, first } = pairCodes(row, inbreeding, undefined)
  return { codes, values: first }
}

/** Codes of the pairs (`first[v]` in single precision, `second[v]` saturated at 255, 0 without `second`) of rows `row[v]`. */
const pairCodes = (
  row: Int32Array,
  firstOfNode: Float64Array,
  secondOfNode: Int32Array | undefined
): { readonly codes: Uint32Array; readonly first: Float32Array; readonly second: Uint8Array } => {
  const single = new Float32Array(1)
  const bits = new Uint32Array(single.buffer)
  const codes = new Uint32Array(row.length)
  let pairBits = new Uint32Array(1024)
  let pairSecond = new Uint8Array(1024)
  let shift = 20
  let slots = new Int32Array(1 << (32 - shift)).fill(EMPTY)
  let count = 0
  const slotOf = (b: number, c: number): number => Math.imul(b ^ Math.imul(c, 0x85ebca6b), 0x9e3779b1) >>> shift
  for (let v = 0; v < row.length; v++) {
    single[0] = firstOfNode[v]
    const b = bits[0]
    const c = secondOfNode === undefined ? 0 : Math.min(255, secondOfNode[v])
    const mask = slots.length - 1
    let slot = slotOf(b, c)
    let code = slots[slot]
    while (code !== EMPTY && (pairBits[code] !== b || pairSecond[code] !== c)) {
      slot = (slot + 1) & mask
      code = slots[slot]
    }
    if (code === EMPTY) {
      code = count++
      if (code === pairBits.length) {
        const moreBits = new Uint32Array(2 * code)
        moreBits.set(pairBits)
        pairBits = moreBits
        const moreSecond = new Uint8Array(2 * code)
        moreSecond.set(pairSecond)
        pairSecond = moreSecond
      }
      pairBits[code] = b
      pairSecond[code] = c
      slots[slot] = code
      if (2 * count > slots.length) {
        // Twice the slots, every code placed again.
        shift--
        slots = new Int32Array(1 << (32 - shift)).fill(EMPTY)
        for (let k = 0; k < count; k++) {
          let s = slotOf(pairBits[k], pairSecond[k])
          while (slots[s] !== EMPTY) s = (s + 1) & (slots.length - 1)
          slots[s] = k
        }
      }
    }
    codes[row[v]] = code
  }
  return { codes, first: new Float32Array(pairBits.buffer, 0, count).slice(), second: pairSecond.slice(0, count) }
}
