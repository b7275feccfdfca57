/**
 * Record assembly: the Resume and Equide of one row, built from the columns on demand (design 2.1).
 * These run up to 100 times per page (`vue=complet`), so they only read typed arrays and decode
 * a few arena strings; nothing is cached per record.
 *
 * Rules (design 1.3): optional fields the data lacks are omitted (never `undefined`, never `null`);
 * the required strings `nom`, `slug`, `race` the source lacks are served as `""`.
 */
import { arenaGet, postingsCount, type StringArena } from "../dataset/columns.ts"
import { spellFiliation } from "../dataset/filiation.ts"
import { performancesAt } from "../dataset/performances.ts"
import { type DatasetData, LINK_NAME_OF_ROW, type LinkColumn, NO_YEAR } from "../dataset/DatasetData.ts"
import { SEXES, type Sexe } from "../vocabulary.ts"
import { findRow } from "../dataset/idTable.ts"
import { ID_BYTES } from "../dataset/ids.ts"
import type { Equide, Performance, Reference, Resume } from "../schemas/equide.ts"
import { slugify } from "../text/fold.ts"

/** Writable view of a response type, to fill optional fields one by one (only when present). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Template of the public record's URL at the source registry (also published by meta and discovery). */
export const URL_FICHE_MODELE = "https://infochevaux.ifce.fr/fr/{slug}-{id}/infos-generales"

/** `URL_FICHE_MODELE` filled in. */
export const urlFiche = (slug: string, id: string): string => `https://infochevaux.ifce.fr/fr/${slug}-${id}/infos-generales`

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
/** Every pair of base64url characters, by the 12 bits they encode. */
const PAIRS: ReadonlyArray<string> = Array.from({ length: 4096 }, (_, bits) => ALPHABET[bits >>> 6] + ALPHABET[bits & 63])

/**
 * The row's official identifier, as text: the same as `encodeId` (a test checks it), about seven
 * times faster (three ids per full record, 100 records per page): 3 bytes give 2 table lookups.
 */
export const idOf = (data: DatasetData, row: number): string => {
  const bytes = data.ids
  const offset = row * ID_BYTES
  let text = ""
  for (let i = offset; i < offset + 15; i += 3) {
    const bits = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]
    text += PAIRS[bits >>> 12] + PAIRS[bits & 4095]
  }
  const last = bytes[offset + 15]
  return text + ALPHABET[last >>> 2] + ALPHABET[(last << 4) & 63]
}

/**
 * String `i` of an arena. Short ASCII strings (most registry names) are built directly, which is
 * several times faster than a TextDecoder call per field; anything else goes through `arenaGet`.
 */
export const textOf = (arena: StringArena, i: number): string => {
  const start = arena.offsets[i]
  const end = arena.offsets[i + 1]
  if (end - start > 96) return arenaGet(arena, i)
  const bytes = arena.bytes
  let text = ""
  for (let j = start; j < end; j++) {
    const byte = bytes[j]
    if (byte >= 0x80) return arenaGet(arena, i)
    text += String.fromCharCode(byte)
  }
  return text
}

/** The row's name (`""` when the source has none). */
export const nomOf = (data: DatasetData, row: number): string => textOf(data.nom, row)

/** The row's own breed, as the record writes it (`""` when absent). */
export const raceOf = (data: DatasetData, row: number): string => data.race.values[data.race.codes[row]]

/** The row's sex; every row has one (codes 1..4 follow SEXES, unknown source values are `Indeter`). */
export const sexeOf = (data: DatasetData, row: number): Sexe => SEXES[data.sexe.codes[row] - 1]

/** The row's birth year, or undefined. */
export const anneeOf = (data: DatasetData, row: number): number | undefined => {
  const year = data.year[row]
  return year === NO_YEAR ? undefined : year
}

/** The slug as served: the source's slug, rebuilt from the name where the Dataset only kept "deducible". */
export const slugOf = (data: DatasetData, row: number): string =>
  data.slugDeduced[row] === 1 ? slugify(nomOf(data, row)) : textOf(data.slug, row)

/**
 * The row with this id text, or undefined for an unknown id and equally for a malformed or
 * non-canonical one (the server answers one identical 404 for all of them).
 */
export const findEquide = (data: DatasetData, idText: string): number | undefined => {
  if (data.size === 0) return undefined
  const row = findRow(data.idTable, data.ids, idText)
  return row >= 0 ? row : undefined
}

/** Summary of one row (list rows, default view). */
export const resume = (data: DatasetData, row: number): Resume => {
  const out: Mutable<Resume> = { id: idOf(data, row), nom: nomOf(data, row), race: raceOf(data, row), sexe: sexeOf(data, row) }
  const year = data.year[row]
  if (year !== NO_YEAR) out.annee_naissance = year
  const robe = data.robe.codes[row]
  if (robe !== 0) out.robe = data.robe.values[robe]
  return out
}

/**
 * One parentage link of `row` as a Reference (design 1.3):
 * - resolved to a row: `id`, `nom` (the link's), `race` (the link's), `fiche_disponible: true`;
 * - dangling, or id unreadable: `nom` and link `race` where the link has them, no `id`,
 *   `fiche_disponible: false`;
 * - a link carrying nothing usable (no resolvable id, no name, no breed): undefined, the field is omitted.
 * `race` always comes from the link (nomenclature `races_lien`), never from the parent's record.
 */
export const linkReference = (data: DatasetData, column: LinkColumn, row: number): Reference | undefined => {
  const parent = column.row[row]
  const name = column.name[row]
  const race = column.race[row]
  if (parent < 0 && name === 0 && race === 0) return undefined
  const out: Mutable<Reference> = {}
  if (parent >= 0) out.id = idOf(data, parent)
  if (name === LINK_NAME_OF_ROW) out.nom = textOf(data.nom, parent)
  else if (name !== 0) out.nom = textOf(data.links.names, name)
  if (race !== 0) out.race = data.links.races[race]
  out.fiche_disponible = parent >= 0
  return out
}

/** The full record of one row. */
export const equide = (data: DatasetData, row: number): Equide => {
  const id = idOf(data, row)
  const slug = slugOf(data, row)
  const out: Mutable<Equide> = {
    id,
    nom: nomOf(data, row),
    slug,
    url: urlFiche(slug, id),
    race: raceOf(data, row),
    sexe: sexeOf(data, row),
    nombre_de_descendants: postingsCount(data.progeny, row)
  }
  const year = data.year[row]
  if (year !== NO_YEAR) out.annee_naissance = year
  const robe = data.robe.codes[row]
  if (robe !== 0) out.robe = data.robe.values[robe]
  const pere = linkReference(data, data.links.pere, row)
  const mere = linkReference(data, data.links.mere, row)
  const pereDeMere = linkReference(data, data.links.pere_de_mere, row)
  const filiation = data.filiationSpelled[row] === 1 ? (spellFiliation(pere, mere, pereDeMere) ?? "") : textOf(data.filiation, row)
  if (filiation !== "") out.filiation_texte = filiation
  if (pere !== undefined) out.pere = pere
  if (mere !== undefined) out.mere = mere
  if (pereDeMere !== undefined) out.pere_de_mere = pereDeMere
  const performances = performancesOf(data, row)
  if (performances !== undefined) out.performances = performances
  return out
}

/** The row's performances as served (see `performances.ts`); undefined when it has none. */
export const performancesOf = (data: DatasetData, row: number): ReadonlyArray<Performance> | undefined =>
  performancesAt(data.performances, row)
