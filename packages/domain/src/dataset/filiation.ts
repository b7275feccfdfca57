/**
 * `filiation_texte` as the registry spells it from the record's links:
 * `Par BOOSTER WINNER TF et JEWELLE DARK TF par CHARLY DU NOYER TF` (design 1.1): each parent's
 * name and link breed, `INCONNU` for a missing father. Almost every filiation of the extract is
 * exactly that, so the Dataset stores the text only where it is not (177 MiB saved at full scale)
 * and spells it again from the served links for the others.
 */
import { type RecordSpans, SPAN_FILIATION, spanLinkNom, spanLinkRace } from "./build/RecordSpans.ts"
import type { SourceLink, SourceRecord } from "./SourceRecord.ts"

/** What the filiation reads of a link: its name and breed, as served. */
export interface LinkSpelling {
  readonly nom?: string | undefined
  readonly race?: string | undefined
}

const ABSENT = 0
const UNSPELLABLE = 1

/** `NOM RACE`; ABSENT for a link carrying neither; UNSPELLABLE for one carrying only one of them. */
const part = (link: LinkSpelling | undefined): string | typeof ABSENT | typeof UNSPELLABLE => {
  if (link === undefined || (link.nom === undefined && link.race === undefined)) return ABSENT
  if (link.nom === undefined || link.race === undefined) return UNSPELLABLE
  return `${link.nom} ${link.race}`
}

/** The registry's filiation text for these links; undefined when a link carries only a name or only a breed. */
export const spellFiliation = (
  pere: LinkSpelling | undefined,
  mere: LinkSpelling | undefined,
  pereDeMere: LinkSpelling | undefined
): string | undefined => {
  const father = part(pere)
  if (father === UNSPELLABLE) return undefined
  const head = `Par ${father === ABSENT ? "INCONNU" : father}`
  const mother = part(mere)
  if (mother === ABSENT) return head
  if (mother === UNSPELLABLE) return undefined
  const grandSire = part(pereDeMere)
  if (grandSire === ABSENT) return `${head} et ${mother}`
  return grandSire === UNSPELLABLE ? undefined : `${head} et ${mother} par ${grandSire}`
}

/** The link as the Dataset will serve it, when that is certain from the record alone (no empty strings). */
const served = (link: SourceLink | undefined): LinkSpelling | undefined | null => {
  if (link === undefined) return undefined
  if (link.nom === "" || link.race === "") return null
  return link
}

/**
 * True when the record's `filiation_texte` is exactly what `spellFiliation` gives for the links
 * the Dataset will serve for it, so that it need not be stored. A text that is not well-formed
 * UTF-16 is kept as stored text, like every other string of the Dataset.
 */
export const isSpelledFiliation = (record: SourceRecord): boolean => {
  const text = record.filiation_texte
  if (text === undefined) return false
  const pere = served(record.pere)
  const mere = served(record.mere)
  const pereDeMere = served(record.pere_de_mere)
  if (pere === null || mere === null || pereDeMere === null) return false
  return spellFiliation(pere, mere, pereDeMere) === text && text.isWellFormed()
}

/** `isSpelledFiliation` of a record given as spans (see `RecordSpans`), comparing the bytes in place. */
export const isSpelledFiliationSpans = (record: RecordSpans): boolean => {
  if (!record.has(SPAN_FILIATION)) return false
  const bytes = record.bytes
  const end = record.end(SPAN_FILIATION)
  let at = record.start(SPAN_FILIATION)
  const literal = (text: string): boolean => {
    if (end - at < text.length) return false
    for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false
    at += text.length
    return true
  }
  const span = (field: number): boolean => {
    const from = record.start(field)
    const length = record.end(field) - from
    if (end - at < length) return false
    for (let i = 0; i < length; i++) if (bytes[at + i] !== bytes[from + i]) return false
    at += length
    return true
  }
  /** The link's `NOM RACE` read at the cursor: ABSENT (nothing read), UNSPELLABLE, or true/false. */
  const part = (k: number): boolean | typeof ABSENT | typeof UNSPELLABLE => {
    const named = record.has(spanLinkNom(k))
    const raced = record.has(spanLinkRace(k))
    if (!named && !raced) return ABSENT
    if (!named || !raced) return UNSPELLABLE
    return span(spanLinkNom(k)) && literal(" ") && span(spanLinkRace(k))
  }
  if (!literal("Par ")) return false
  const father = part(0)
  if (father === UNSPELLABLE || father === false) return false
  if (father === ABSENT && !literal("INCONNU")) return false
  // The mother's part is tested before reading " et ": without her, the text ends after the father.
  const hasMother = record.has(spanLinkNom(1)) || record.has(spanLinkRace(1))
  if (!hasMother) return at === end
  if (!literal(" et ")) return false
  const mother = part(1)
  if (mother !== true) return false
  const hasGrandSire = record.has(spanLinkNom(2)) || record.has(spanLinkRace(2))
  if (!hasGrandSire) return at === end
  return literal(" par ") && part(2) === true && at === end
}
