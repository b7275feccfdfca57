/**
 * The name index's share of stage 1: each row's name folded (the `tri=nom` key) and each distinct
 * folded name interned once, with its distinct words (the search tokens) interned when it is
 * first seen. Registry names repeat (common names recur), so words are looked up once per
 * distinct folded name, not once per row. The sorting happens once, in `summary`.
 */
import type { Postings } from "../columns.ts"
import { foldUtf8, foldValue } from "../../text/fold.ts"
import { textOfBytes } from "./bytes.ts"
import { Growable, StringIds } from "./growable.ts"

/** What the name index hands the Dataset at the end of a load. */
export interface NameSummary {
  /** Folded name id → its rank in code-unit order (the `tri=nom` order). */
  readonly keyRank: Uint32Array
  /** Folded name id → the ranks (in `tokens`) of its distinct words. */
  readonly keyTokens: Postings
  /** Distinct folded words of the row names, sorted (code-unit order). */
  readonly tokens: Array<string>
}

/** Upper-case ASCII letters and digits in words separated by single spaces: its own folded form. */
const isFoldedAscii = (bytes: Uint8Array, start: number, end: number): boolean => {
  let previous = 32
  for (let i = start; i < end; i++) {
    const c = bytes[i]
    if (c === 32) {
      if (previous === 32) return false
    } else if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return false
    previous = c
  }
  return previous !== 32 || end === start
}

export class NameIndexer {
  readonly #keys = new StringIds()
  readonly #keyTokenOffsets = new Growable(Uint32Array)
  readonly #keyTokens = new Growable(Uint32Array)
  readonly #tokens = new StringIds()
  #scratch = new Uint8Array(256)

  constructor() {
    this.#keyTokenOffsets.push(0)
  }

  /** Id of the folded form of a row's name (`""` when it has none). */
  key(text: string): number {
    const before = this.#keys.size
    return this.#known(this.#keys.id(foldValue(text)), before)
  }

  /**
   * `key` of the UTF-8 name `bytes[start..end]`, without building its string: an already folded
   * ASCII name is looked up in place, another folded into a scratch buffer when the table allows.
   */
  keyOfBytes(bytes: Uint8Array, start: number, end: number): number {
    const before = this.#keys.size
    if (isFoldedAscii(bytes, start, end)) return this.#known(this.#keys.idOfAscii(bytes, start, end), before)
    if (this.#scratch.length < end - start) this.#scratch = new Uint8Array(2 * (end - start))
    const length = foldUtf8(bytes, start, end, this.#scratch)
    if (length < 0) return this.key(textOfBytes(bytes, start, end))
    return this.#known(this.#keys.idOfAscii(this.#scratch, 0, length), before)
  }

  /** The key id, its words registered when it is new (an id from `before` on). */
  #known(id: number, before: number): number {
    if (id < before) return id
    const key = this.#keys.values[id]
    if (key.length > 0) {
      const start = this.#keyTokens.length
      for (const word of key.split(" ")) {
        const token = this.#tokens.id(word)
        let seen = false
        for (let j = start; j < this.#keyTokens.length; j++) if (this.#keyTokens.array[j] === token) seen = true
        if (!seen) this.#keyTokens.push(token)
      }
    }
    this.#keyTokenOffsets.push(this.#keyTokens.length)
    return id
  }

  /**
   * Sorts the folded forms and the words with the engine's native string sort (far faster than a
   * comparator over millions of strings).
   */
  summary(): NameSummary {
    const keyRank = rankOf(this.#keys)
    const tokenRank = rankOf(this.#tokens)
    const tokens = new Array<string>(this.#tokens.size)
    for (let id = 0; id < tokens.length; id++) tokens[tokenRank[id]] = this.#tokens.values[id]
    const keyTokens = this.#keyTokens.trimmed()
    for (let i = 0; i < keyTokens.length; i++) keyTokens[i] = tokenRank[keyTokens[i]]
    return {
      keyRank,
      keyTokens: { offsets: this.#keyTokenOffsets.trimmed(), rows: keyTokens },
      tokens
    }
  }
}

/** Each string's rank in code-unit order. */
const rankOf = (strings: StringIds): Uint32Array => {
  const sorted = [...strings.values].sort()
  const rank = new Uint32Array(sorted.length)
  for (let i = 0; i < sorted.length; i++) rank[strings.id(sorted[i])] = i
  return rank
}
