/**
 * The JSON Lines fast path: one pass over a line's UTF-8 bytes that validates it as JSON and
 * points at the values stage 1 of the Dataset build keeps (`RecordSpans`), without building a
 * string or an object for them. `JSON.parse` built both for every value of every line (the
 * personal `naisseur` included) only for the normaliser to keep a few and the encoder to turn
 * those back into bytes and codes: it was most of a load's work.
 *
 * Exactness: for every line it accepts, `RecordEncoder.encodeSpans` of the spans equals
 * `RecordEncoder.encode(normalizeRecord(JSON.parse(line)))` (a property test holds it to that,
 * batch for batch). Anything off the usual shape gives `undefined`, and the line goes through
 * `JSON.parse` and the normaliser as before, which also give the error messages: not an object,
 * invalid JSON, an escape sequence or ill-formed UTF-8 in a value that is kept, a key written with
 * an escape, a known key given twice (JSON keeps the last), nesting deeper than MAX_DEPTH, and the
 * values the normaliser counts as anomalies (a known field of the wrong JSON type, text that is
 * not well-formed), so that they are counted in one place.
 *
 * The normaliser's rules, applied here: a text is kept when it is a non-empty string; an integer
 * when it is a number that is a safe integer (`-0` reads `0`); a link, a performance or an index
 * when it is an object with at least one kept field; a list when it is an array with at least one
 * kept element. Performances are rare enough (a quarter of the lines, a few values each) to be
 * built as objects, with the normaliser's own shape.
 */
import { RecordSpans, SPAN_FIELDS, spanLinkId, spanLinkNom, spanLinkRace, type SourceIndex, type SourcePerformance } from "@equides/domain/build"
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, DIGIT_0, DOT, isDigit, isHex, MINUS, OPEN_ARRAY, OPEN_OBJECT, PLUS, QUOTE } from "./jsonSyntax.ts"
import { findKey, INDEX_FIELDS, type KeyTable, LINK_FIELDS, NO_KEYS, PERFORMANCE_FIELDS, RECORD_FIELDS } from "./keyTables.ts"
import { asciiText, decoder, isWellFormedUtf8 } from "./utf8Text.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const MAX_DEPTH = 32

/** Thrown inside the scanner to give up on a line; never escapes `scan`. */
const GIVE_UP = new Error("not on the fast path")

/** What a scanned value was, for the normaliser's rules (only the kinds they tell apart). */
const OTHER = 0
const STRING = 1
const NUMBER = 2
const NULL = 3

/** RECORD_FIELDS index → RecordSpans field, for the text fields kept as spans. */
const RECORD_SPANS = [0, 1, 2, 3, 4, 5, -1, 6, -1, 7] as const
const LINK_SPANS = [spanLinkId, spanLinkNom, spanLinkRace] as const

/** The byte at `i`, -1 past the end of the line. */
const at = (bytes: Uint8Array, i: number, end: number): number => (i < end ? bytes[i] : -1)

/** 10^0 … 10^15, all exact doubles. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, n) => 10 ** n)


export class LineScanner {
  readonly #record = new RecordSpans()
  #bytes: Uint8Array = new Uint8Array(0)
  #position = 0
  #end = 0
  /** Bounds of the last string scanned (without quotes); whether it held an escape, a non-ASCII byte. */
  #start = 0
  #stringEnd = 0
  #escaped = false
  #ascii = true
  /** Value of the last number scanned. */
  #number = 0

  /**
   * The spans of the line `bytes[start..end]` (valid until the next call), or undefined when it
   * is not on the fast path.
   */
  scan(bytes: Uint8Array, start: number, end: number): RecordSpans | undefined {
    this.#bytes = bytes
    this.#position = start
    this.#end = end
    const record = this.#record
    record.reset(bytes)
    try {
      if (!this.#opens(OPEN_OBJECT, 0)) return undefined
      let seen = 0
      let previous = RECORD_FIELDS.keys.length
      if (!this.#closes(CLOSE_OBJECT)) {
        do {
          const field = this.#key(RECORD_FIELDS, previous)
          if (field >= 0) {
            seen = once(seen, field)
            previous = field
          }
          if (field < 0) {
            this.#value(1)
          } else if (field === 8) {
            // `record`: kept by the normaliser, unused by the Dataset, so validated only.
            this.#typedText(1)
          } else if (field <= 9 && field !== 6) {
            this.#text(record, RECORD_SPANS[field], 1)
          } else if (field === 6) {
            record.annee = this.#integer(1)
          } else if (field <= 12) {
            this.#link(record, field - 10, 1)
          } else {
            record.performances = this.#list(1, this.#performance)
          }
        } while (this.#next(CLOSE_OBJECT))
      }
      this.#whitespace()
      return this.#position === end ? record : undefined
    } catch (error) {
      if (error === GIVE_UP) return undefined
      throw error
    }
  }

  #whitespace(): void {
    const bytes = this.#bytes
    let p = this.#position
    while (p < this.#end) {
      const c = bytes[p]
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break
      p++
    }
    this.#position = p
  }

  /** The byte at the position (after whitespace), -1 at the end of the line. */
  #peek(): number {
    if (this.#position < this.#end && this.#bytes[this.#position] > 32) return this.#bytes[this.#position]
    this.#whitespace()
    return this.#position < this.#end ? this.#bytes[this.#position] : -1
  }

  #expect(c: number): void {
    if (this.#peek() !== c) throw GIVE_UP
    this.#position++
  }

  /** After `{`/`[`: true, consuming it, when the container closes at once. */
  #closes(c: number): boolean {
    if (this.#peek() !== c) return false
    this.#position++
    return true
  }

  /** After a member or an element: true for `,`, false for the closing `c`. */
  #next(c: number): boolean {
    const found = this.#peek()
    this.#position++
    if (found === COMMA) return true
    if (found === c) return false
    throw GIVE_UP
  }

  /** A string at the position; sets its bounds and whether it is escaped or not ASCII. */
  #string(): void {
    this.#expect(QUOTE)
    const bytes = this.#bytes
    const end = this.#end
    let p = this.#position
    let ascii = true
    this.#start = p
    this.#escaped = false
    for (;;) {
      if (p >= end) throw GIVE_UP
      const c = bytes[p++]
      if (c === QUOTE) break
      if (c === BACKSLASH) {
        this.#escaped = true
        if (p >= end) throw GIVE_UP
        const e = bytes[p++]
        if (e === 117) {
          if (p + 4 > end) throw GIVE_UP
          for (let i = 0; i < 4; i++) if (!isHex(bytes[p++])) throw GIVE_UP
        } else if (!(e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) {
          throw GIVE_UP
        }
      } else if (c < 32) {
        throw GIVE_UP
      } else if (c >= 0x80) {
        ascii = false
      }
    }
    this.#stringEnd = p - 1
    this.#ascii = ascii
    this.#position = p
  }

  /**
   * A member's key: its index in the table, -1 for another (a key written with an escape gives
   * up). `previous` is the index of the key before it in this object (`keys.length` for none):
   * the key that followed it last time is tried first, byte for byte.
   */
  #key(table: KeyTable, previous: number): number {
    const guess = table.after[previous]
    if (guess >= 0 && this.#position < this.#end && this.#bytes[this.#position] === QUOTE) {
      const pattern = table.quoted[guess]
      const bytes = this.#bytes
      const at = this.#position + 1
      if (at + pattern.length <= this.#end) {
        let i = 0
        while (i < pattern.length && bytes[at + i] === pattern[i]) i++
        if (i === pattern.length) {
          this.#position = at + pattern.length
          this.#expect(COLON)
          return guess
        }
      }
    }
    const found = this.#anyKey(table)
    if (found >= 0) table.after[previous] = found
    return found
  }

  #anyKey(table: KeyTable): number {
    this.#string()
    if (this.#escaped) throw GIVE_UP
    const bytes = this.#bytes
    const start = this.#start
    const length = this.#stringEnd - start
    const found = findKey(table, bytes, start, length)
    this.#expect(COLON)
    return found
  }

  /** A number (JSON grammar) at the position; sets it to the value JSON.parse gives. */
  #numberValue(): void {
    const bytes = this.#bytes
    const end = this.#end
    const start = this.#position
    let p = start
    let c = at(bytes, p, end)
    const negative = c === MINUS
    if (negative) c = at(bytes, ++p, end)
    if (!isDigit(c)) throw GIVE_UP
    let exponent = false
    let digits = 0
    let fraction = 0
    let mantissa = 0
    if (c === DIGIT_0) {
      c = at(bytes, ++p, end)
    } else {
      while (isDigit(c)) {
        mantissa = mantissa * 10 + (c - DIGIT_0)
        digits++
        c = at(bytes, ++p, end)
      }
    }
    if (c === DOT) {
      c = at(bytes, ++p, end)
      if (!isDigit(c)) throw GIVE_UP
      while (isDigit(c)) {
        mantissa = mantissa * 10 + (c - DIGIT_0)
        digits++
        fraction++
        c = at(bytes, ++p, end)
      }
    }
    if (c === 101 || c === 69) {
      exponent = true
      c = at(bytes, ++p, end)
      if (c === PLUS || c === MINUS) c = at(bytes, ++p, end)
      if (!isDigit(c)) throw GIVE_UP
      while (isDigit(c)) c = at(bytes, ++p, end)
    }
    this.#position = p
    // With at most 15 significant digits (so the mantissa is exact) and no exponent, the value is
    // mantissa / 10^fraction: both exact doubles, and one correctly rounded division gives the
    // double nearest to the decimal, which is what JSON.parse gives. Anything else goes through
    // the engine's own conversion.
    if (!exponent && digits <= 15) {
      const value = fraction === 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction]
      this.#number = negative ? -value : value
    } else {
      this.#number = Number(asciiText(bytes, start, p))
    }
  }

  /** Any value, validated and skipped; answers its kind (strings and numbers leave their bounds/value). */
  #value(depth: number): number {
    const c = this.#peek()
    if (c === QUOTE) {
      this.#string()
      return STRING
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= MAX_DEPTH) throw GIVE_UP
      this.#position++
      if (c === OPEN_OBJECT) {
        if (this.#closes(CLOSE_OBJECT)) return OTHER
        do {
          this.#anyKey(NO_KEYS)
          this.#value(depth + 1)
        } while (this.#next(CLOSE_OBJECT))
      } else {
        if (this.#closes(CLOSE_ARRAY)) return OTHER
        do this.#value(depth + 1)
        while (this.#next(CLOSE_ARRAY))
      }
      return OTHER
    }
    if (c === 110) return this.#literal("null", NULL)
    if (c === 116) return this.#literal("true", OTHER)
    if (c === 102) return this.#literal("false", OTHER)
    this.#numberValue()
    return NUMBER
  }

  #literal(word: string, kind: number): number {
    if (this.#position + word.length > this.#end) throw GIVE_UP
    for (let i = 0; i < word.length; i++) if (this.#bytes[this.#position + i] !== word.charCodeAt(i)) throw GIVE_UP
    this.#position += word.length
    return kind
  }

  /**
   * A value of a field the normaliser reads, of kind `expected` or `null`: any other kind gives up
   * (the normaliser counts it as a wrong type, `types_invalides`).
   */
  #typed(depth: number, expected: number): number {
    const kind = this.#value(depth)
    if (kind !== expected && kind !== NULL) throw GIVE_UP
    return kind
  }

  /** The last string, when it is kept (non-empty); an escape or ill-formed UTF-8 in it gives up. */
  #kept(): boolean {
    if (this.#stringEnd === this.#start) return false
    if (this.#escaped) throw GIVE_UP
    if (!this.#ascii && !isWellFormedUtf8(this.#bytes, this.#start, this.#stringEnd)) throw GIVE_UP
    return true
  }

  /** The last string (kept: no escape, well-formed UTF-8) as a string. */
  #keptString(): string {
    return this.#ascii
      ? asciiText(this.#bytes, this.#start, this.#stringEnd)
      : decoder.decode(this.#bytes.subarray(this.#start, this.#stringEnd))
  }

  /**
   * `presentText` of a value the Dataset does not keep (`record`, a link's `pays` and `alias`):
   * only what could make the normaliser count it is checked (a wrong type, ill-formed UTF-8, a
   * `\u` escape that may be a lone surrogate); other escapes, common there (`1'10\"2`), stay on
   * the fast path.
   */
  #typedText(depth: number): void {
    if (this.#typed(depth, STRING) !== STRING) return
    const bytes = this.#bytes
    if (this.#escaped) {
      for (let p = this.#start; p < this.#stringEnd; p++) {
        if (bytes[p] === BACKSLASH && bytes[++p] === 117) throw GIVE_UP
      }
    }
    if (!this.#ascii && !isWellFormedUtf8(bytes, this.#start, this.#stringEnd)) throw GIVE_UP
  }

  /** `presentText` into a span. */
  #text(record: RecordSpans, field: number, depth: number): void {
    if (this.#typed(depth, STRING) === STRING && this.#kept()) record.set(field, this.#start, this.#stringEnd)
  }

  /** `presentText`, as a string (performances). */
  #string_(depth: number): string | undefined {
    if (this.#typed(depth, STRING) !== STRING || !this.#kept()) return undefined
    return this.#keptString()
  }

  /** `presentInteger`. */
  #integer(depth: number): number | undefined {
    return this.#typed(depth, NUMBER) === NUMBER && Number.isSafeInteger(this.#number) ? this.#number + 0 : undefined
  }

  /** `presentNumber`. */
  #finite(depth: number): number | undefined {
    return this.#typed(depth, NUMBER) === NUMBER && Number.isFinite(this.#number) ? this.#number + 0 : undefined
  }

  /** `presentValeur`: a non-empty string, or a number's text. */
  #valeur(depth: number): string | undefined {
    const kind = this.#value(depth)
    if (kind === NUMBER) return Number.isFinite(this.#number) ? String(this.#number + 0) : undefined
    if (kind === NULL) return undefined
    if (kind !== STRING) throw GIVE_UP
    if (!this.#kept()) return undefined
    return this.#keptString()
  }

  /**
   * True, having consumed the opening byte, when the value is a `c` container; `null` is skipped;
   * any other value gives up (a wrong type, counted by the normaliser).
   */
  #opens(c: number, depth: number): boolean {
    if (this.#peek() !== c) {
      this.#typed(depth, NULL)
      return false
    }
    if (depth >= MAX_DEPTH) throw GIVE_UP
    this.#position++
    return true
  }

  /** Link `k`: its id, nom and race as spans (`pays`, `alias`: validated only, the Dataset does not keep them). */
  #link(record: RecordSpans, k: number, depth: number): void {
    if (!this.#opens(OPEN_OBJECT, depth)) return
    let seen = 0
    let previous = LINK_FIELDS.keys.length
    if (this.#closes(CLOSE_OBJECT)) return
    do {
      const field = this.#key(LINK_FIELDS, previous)
      if (field >= 0) {
        seen = once(seen, field)
        previous = field
      }
      if (field >= 0 && field <= 2) this.#text(record, LINK_SPANS[field](k), depth + 1)
      else if (field >= 0) this.#typedText(depth + 1)
      else this.#value(depth + 1)
    } while (this.#next(CLOSE_OBJECT))
  }

  /** The kept results of `item` over an array's elements; undefined when none (or not an array). */
  #list<A>(depth: number, item: (this: LineScanner, depth: number) => A | undefined): Array<A> | undefined {
    if (!this.#opens(OPEN_ARRAY, depth)) return undefined
    if (this.#closes(CLOSE_ARRAY)) return undefined
    let out: Array<A> | undefined
    do {
      const value = item.call(this, depth + 1)
      if (value !== undefined) (out ??= []).push(value)
    } while (this.#next(CLOSE_ARRAY))
    return out
  }

  #performance(depth: number): SourcePerformance | undefined {
    if (!this.#opens(OPEN_OBJECT, depth)) return undefined
    let discipline: string | undefined
    let texte: string | undefined
    let indices: Array<SourceIndex> | undefined
    let seen = 0
    let previous = PERFORMANCE_FIELDS.keys.length
    if (!this.#closes(CLOSE_OBJECT)) {
      do {
        const field = this.#key(PERFORMANCE_FIELDS, previous)
        if (field >= 0) {
          seen = once(seen, field)
          previous = field
        }
        if (field === 0) discipline = this.#string_(depth + 1)
        else if (field === 1) texte = this.#string_(depth + 1)
        else if (field === 2) indices = this.#list(depth + 1, this.#index)
        else this.#value(depth + 1)
      } while (this.#next(CLOSE_OBJECT))
    }
    if (discipline === undefined && texte === undefined && indices === undefined) return undefined
    const out: Mutable<SourcePerformance> = {}
    if (discipline !== undefined) out.discipline = discipline
    if (texte !== undefined) out.texte = texte
    if (indices !== undefined) out.indices = indices
    return out
  }

  #index(depth: number): SourceIndex | undefined {
    if (!this.#opens(OPEN_OBJECT, depth)) return undefined
    let annee: number | undefined
    let appreciation: string | undefined
    let code: string | undefined
    let coefficient: number | undefined
    let valeur: string | undefined
    let seen = 0
    let previous = INDEX_FIELDS.keys.length
    if (!this.#closes(CLOSE_OBJECT)) {
      do {
        const field = this.#key(INDEX_FIELDS, previous)
        if (field >= 0) {
          seen = once(seen, field)
          previous = field
        }
        if (field === 0) annee = this.#integer(depth + 1)
        else if (field === 1) appreciation = this.#string_(depth + 1)
        else if (field === 2) code = this.#string_(depth + 1)
        else if (field === 3) coefficient = this.#finite(depth + 1)
        else if (field === 4) valeur = this.#valeur(depth + 1)
        else this.#value(depth + 1)
      } while (this.#next(CLOSE_OBJECT))
    }
    if (annee === undefined && appreciation === undefined && code === undefined && coefficient === undefined && valeur === undefined) {
      return undefined
    }
    const out: Mutable<SourceIndex> = {}
    if (annee !== undefined) out.annee = annee
    if (appreciation !== undefined) out.appreciation = appreciation
    if (code !== undefined) out.code = code
    if (coefficient !== undefined) out.coefficient = coefficient
    if (valeur !== undefined) out.valeur = valeur
    return out
  }
}

/** Known keys seen in one object (a bit per key index): a second occurrence gives up (JSON.parse keeps the last). */
const once = (seen: number, field: number): number => {
  const bit = 1 << field
  if ((seen & bit) !== 0) throw GIVE_UP
  return seen | bit
}

// The spans cover every field the Dataset reads from a line.
if (SPAN_FIELDS !== 17) throw new Error("RecordSpans changed: update the line scanner")
