/**
 * The performances column, compactly encoded. A quarter of the registry's records carry
 * performances; as compact JSON they took about 160 bytes a row (177 MiB at full scale), almost
 * all of it keys, dictionary words (disciplines, index codes, appreciations) and a `texte` that
 * only spells the indices again (`BTR +59 (0.35) / ITR 115 (0.80)`). Here each row is a few
 * bytes: strings by dictionary code, numbers as varints, `texte` omitted when it is exactly the
 * rendering of the indices, and coefficients as hundredths when that is exact.
 *
 * What is served must not change: the reference is the previous storage, the compact JSON of the
 * record's performances read back keeping only the spec's fields with their types
 * (`JSON.parse(JSON.stringify(…))`: `-0` reads `0`, non-finite numbers are dropped). Anything the
 * compact form cannot carry exactly (a value of an unexpected type, a huge year, a `texte` that is
 * not well-formed UTF-16) keeps that JSON, so every row decodes to what it decoded to before.
 *
 * Row layout (`bytes[offsets[row]..offsets[row+1]]`, empty when the row has no performances):
 * ```
 * form: 0 = JSON text (UTF-8) follows | 1 = compact:
 *   varint n, then n × performance:
 *     flags (P_*), [discipline: varint string code], [texte: varint byte length + UTF-8],
 *     [indices: varint m, then m × (flags (I_*), [annee: zigzag varint], [appreciation: code],
 *                                    [code: code], [coefficient: 1 byte hundredths | 8 bytes f64],
 *                                    [valeur: zigzag varint | string code])]
 * ```
 */
import type { StringArena } from "./columns.ts"
import type { SourceIndex, SourcePerformance } from "./SourceRecord.ts"
import { type Growable, ownString } from "./build/growable.ts"

/** The encoded performances of every row, and the strings their codes point to. */
export interface PerformanceColumn extends StringArena {
  readonly strings: ReadonlyArray<string>
}

const JSON_FORM = 0
const COMPACT_FORM = 1

const P_DISCIPLINE = 1
const P_TEXTE = 2
/** `texte` present and equal to `renderTexte` of the indices: not stored. */
const P_TEXTE_RENDERED = 4
const P_INDICES = 8

const I_ANNEE = 1
const I_APPRECIATION = 2
const I_CODE = 4
const I_COEFFICIENT = 8
const I_VALEUR = 16
/** The coefficient is k / 100 exactly for a k in 0..255: one byte. */
const I_COEFFICIENT_HUNDREDTHS = 32
/** `valeur` is the decimal text of an int32 (`115`, `-3`), stored as that number. */
const I_VALEUR_INTEGER = 64
/** …with a `+` in front (`+59`). */
const I_VALEUR_PLUS = 128

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

const encoder = new TextEncoder()
// ignoreBOM: a text starting with U+FEFF is served with it, as ingestion stored it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
const float = new Float64Array(1)
const floatBytes = new Uint8Array(float.buffer)

/** The registry's rendering of a performance's indices; undefined when an index lacks a part. */
const renderTexte = (indices: ReadonlyArray<SourceIndex>): string | undefined => {
  let text = ""
  for (let i = 0; i < indices.length; i++) {
    const { code, valeur, coefficient } = indices[i]
    if (code === undefined || valeur === undefined || coefficient === undefined) return undefined
    text += `${i === 0 ? "" : " / "}${code} ${valeur} (${coefficient.toFixed(2)})`
  }
  return text
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

// ---------------------------------------------------------------------------------------------
// Encoding (at load)

/** The value an index field is served as, or undefined when it is not served (see the module comment). */
const servedIndex = (source: Record<string, unknown>): SourceIndex => {
  const out: { -readonly [K in keyof SourceIndex]: SourceIndex[K] } = {}
  if (Number.isSafeInteger(source.annee)) out.annee = (source.annee as number) + 0
  if (typeof source.appreciation === "string") out.appreciation = source.appreciation
  if (typeof source.code === "string") out.code = source.code
  if (typeof source.coefficient === "number" && Number.isFinite(source.coefficient)) out.coefficient = source.coefficient + 0
  if (typeof source.valeur === "string") out.valeur = source.valeur
  return out
}

const isOptional = (value: unknown, type: "string" | "number"): boolean => value === undefined || typeof value === type

/**
 * The field types SourceIndex declares. A value of another type (an in-memory record breaking the
 * type) goes through JSON, whose reading of it (`toJSON`, `null`…) is the reference.
 */
const hasExpectedTypes = (index: Record<string, unknown>): boolean =>
  isOptional(index.annee, "number") && isOptional(index.coefficient, "number") && isOptional(index.appreciation, "string") &&
  isOptional(index.code, "string") && isOptional(index.valeur, "string")

/** Encodes rows' performances; owns the string dictionary their codes point to. */
export class PerformanceEncoder {
  readonly strings: Array<string> = []
  readonly #codes = new Map<string, number>()
  #out!: Growable<Uint8Array>

  /** Appends the encoding of one row's performances to `out` (nothing when it has none). */
  encode(performances: ReadonlyArray<SourcePerformance> | undefined, out: Growable<Uint8Array>): void {
    if (performances === undefined || performances.length === 0) return
    const start = out.length
    this.#out = out
    if (!Array.isArray(performances) || !this.#compact(performances)) {
      out.length = start
      this.#byte(JSON_FORM)
      const json = JSON.stringify(performances)
      out.reserve(json.length * 3)
      out.length += encoder.encodeInto(json, out.array.subarray(out.length)).written
    }
  }

  #compact(performances: ReadonlyArray<unknown>): boolean {
    this.#byte(COMPACT_FORM)
    this.#varint(performances.length)
    for (let p = 0; p < performances.length; p++) {
      const performance = performances[p]
      if (!isObject(performance)) return false
      const { discipline, texte, indices } = performance
      if (!isOptional(discipline, "string") || !isOptional(texte, "string")) return false
      if (indices !== undefined && !Array.isArray(indices)) return false
      const served: Array<SourceIndex> = []
      if (Array.isArray(indices)) {
        for (const index of indices as ReadonlyArray<unknown>) {
          if (!isObject(index) || !hasExpectedTypes(index)) return false
          served.push(servedIndex(index))
        }
      }
      let flags = 0
      if (typeof discipline === "string") flags |= P_DISCIPLINE
      if (Array.isArray(indices)) flags |= P_INDICES
      if (typeof texte === "string") {
        flags |= P_TEXTE
        if (Array.isArray(indices) && renderTexte(served) === texte) flags |= P_TEXTE_RENDERED
        // UTF-8 cannot carry a lone surrogate: such a text keeps the JSON form.
        else if (!texte.isWellFormed()) return false
      }
      this.#byte(flags)
      if ((flags & P_DISCIPLINE) !== 0) this.#varint(this.#code(discipline as string))
      if ((flags & (P_TEXTE | P_TEXTE_RENDERED)) === P_TEXTE) this.#text(texte as string)
      if ((flags & P_INDICES) !== 0) {
        this.#varint(served.length)
        for (const index of served) if (!this.#index(index)) return false
      }
    }
    return true
  }

  #index(index: SourceIndex): boolean {
    const { annee, appreciation, code, coefficient, valeur } = index
    let flags = 0
    if (annee !== undefined) {
      if (annee < INT32_MIN || annee > INT32_MAX) return false
      flags |= I_ANNEE
    }
    if (appreciation !== undefined) flags |= I_APPRECIATION
    if (code !== undefined) flags |= I_CODE
    let hundredths = -1
    if (coefficient !== undefined) {
      flags |= I_COEFFICIENT
      const k = Math.round(coefficient * 100)
      if (k >= 0 && k <= 255 && k / 100 === coefficient) {
        flags |= I_COEFFICIENT_HUNDREDTHS
        hundredths = k
      }
    }
    let integer = 0
    if (valeur !== undefined) {
      flags |= I_VALEUR
      const plus = valeur.charCodeAt(0) === 43
      const digits = plus ? valeur.slice(1) : valeur
      const n = Number(digits)
      // Only texts that are exactly the number written back (`-0`, `+-3`, `059`, `1e3` are not).
      if (n >= INT32_MIN && n <= INT32_MAX && Number.isInteger(n) && String(n) === digits && !(plus && n < 0)) {
        flags |= plus ? I_VALEUR_INTEGER | I_VALEUR_PLUS : I_VALEUR_INTEGER
        integer = n
      }
    }
    this.#byte(flags)
    if (annee !== undefined) this.#zigzag(annee)
    if (appreciation !== undefined) this.#varint(this.#code(appreciation))
    if (code !== undefined) this.#varint(this.#code(code))
    if (coefficient !== undefined) {
      if (hundredths >= 0) this.#byte(hundredths)
      else {
        float[0] = coefficient
        for (let i = 0; i < 8; i++) this.#byte(floatBytes[i])
      }
    }
    if (valeur !== undefined) {
      if ((flags & I_VALEUR_INTEGER) !== 0) this.#zigzag(integer)
      else this.#varint(this.#code(valeur))
    }
    return true
  }

  #code(text: string): number {
    let code = this.#codes.get(text)
    if (code === undefined) {
      const own = ownString(text)
      code = this.strings.length
      this.strings.push(own)
      this.#codes.set(own, code)
    }
    return code
  }

  #byte(value: number): void {
    this.#out.push(value)
  }

  #varint(value: number): void {
    while (value >= 0x80) {
      this.#out.push((value & 0x7f) | 0x80)
      value >>>= 7
    }
    this.#out.push(value)
  }

  #zigzag(value: number): void {
    this.#varint(((value << 1) ^ (value >> 31)) >>> 0)
  }

  #text(value: string): void {
    const out = this.#out
    const bytes = encoder.encode(value)
    this.#varint(bytes.length)
    out.reserve(bytes.length)
    out.array.set(bytes, out.length)
    out.length += bytes.length
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding (per request)

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** The previous storage's reading of the JSON form, kept for the rows that still use it. */
const fromJson = (text: string): ReadonlyArray<SourcePerformance> | undefined => {
  const raw: unknown = JSON.parse(text)
  if (!Array.isArray(raw)) return undefined
  const out: Array<SourcePerformance> = []
  for (const item of raw) {
    if (!isObject(item)) continue
    const performance: Mutable<SourcePerformance> = {}
    if (typeof item.discipline === "string") performance.discipline = item.discipline
    if (typeof item.texte === "string") performance.texte = item.texte
    if (Array.isArray(item.indices)) {
      const indices: Array<SourceIndex> = []
      for (const index of item.indices as ReadonlyArray<unknown>) if (isObject(index)) indices.push(servedIndex(index))
      performance.indices = indices
    }
    out.push(performance)
  }
  return out.length > 0 ? out : undefined
}

class Reader {
  position: number
  readonly #bytes: Uint8Array

  constructor(bytes: Uint8Array, position: number) {
    this.#bytes = bytes
    this.position = position
  }

  byte(): number {
    return this.#bytes[this.position++]
  }

  varint(): number {
    let value = 0
    let shift = 0
    for (;;) {
      const byte = this.#bytes[this.position++]
      value += (byte & 0x7f) * 2 ** shift
      if (byte < 0x80) return value
      shift += 7
    }
  }

  zigzag(): number {
    const z = this.varint()
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  float(): number {
    for (let i = 0; i < 8; i++) floatBytes[i] = this.#bytes[this.position++]
    return float[0]
  }

  text(): string {
    const length = this.varint()
    const start = this.position
    this.position += length
    return decoder.decode(this.#bytes.subarray(start, this.position))
  }
}

const readIndex = (reader: Reader, strings: ReadonlyArray<string>): SourceIndex => {
  const flags = reader.byte()
  const out: Mutable<SourceIndex> = {}
  if ((flags & I_ANNEE) !== 0) out.annee = reader.zigzag()
  if ((flags & I_APPRECIATION) !== 0) out.appreciation = strings[reader.varint()]
  if ((flags & I_CODE) !== 0) out.code = strings[reader.varint()]
  if ((flags & I_COEFFICIENT) !== 0) out.coefficient = (flags & I_COEFFICIENT_HUNDREDTHS) !== 0 ? reader.byte() / 100 : reader.float()
  if ((flags & I_VALEUR) !== 0) {
    out.valeur = (flags & I_VALEUR_INTEGER) === 0
      ? strings[reader.varint()]
      : `${(flags & I_VALEUR_PLUS) !== 0 ? "+" : ""}${reader.zigzag()}`
  }
  return out
}

/**
 * The row's performances as served, in the source's shape (the spec's fields, which the response
 * schema `Performance` takes as they are: `query/record.ts` has the compiler check it, so that the
 * Dataset knows no response schema); undefined when it has none.
 */
export const performancesAt = (column: PerformanceColumn, row: number): ReadonlyArray<SourcePerformance> | undefined => {
  const start = column.offsets[row]
  const end = column.offsets[row + 1]
  if (start === end) return undefined
  if (column.bytes[start] === JSON_FORM) return fromJson(decoder.decode(column.bytes.subarray(start + 1, end)))
  const reader = new Reader(column.bytes, start + 1)
  const strings = column.strings
  const count = reader.varint()
  const out: Array<SourcePerformance> = []
  for (let p = 0; p < count; p++) {
    const flags = reader.byte()
    const performance: Mutable<SourcePerformance> = {}
    if ((flags & P_DISCIPLINE) !== 0) performance.discipline = strings[reader.varint()]
    const storedTexte = (flags & (P_TEXTE | P_TEXTE_RENDERED)) === P_TEXTE ? reader.text() : undefined
    let indices: Array<SourceIndex> | undefined
    if ((flags & P_INDICES) !== 0) {
      const n = reader.varint()
      indices = []
      for (let i = 0; i < n; i++) indices.push(readIndex(reader, strings))
    }
    if ((flags & P_TEXTE_RENDERED) !== 0) performance.texte = renderTexte(indices ?? []) ?? ""
    else if (storedTexte !== undefined) performance.texte = storedTexte
    if (indices !== undefined) performance.indices = indices
    out.push(performance)
  }
  return out
}
