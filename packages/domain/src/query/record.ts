/**
 * Record assembly: the Resume and Equide of one row, built from the columns on demand (design 2.1).
 * These run up to 100 times per page (`vue=complet`), so they only read typed arrays and decode
 * a few arena strings; nothing is cached per record.
 *
 * Rules (design 1.3): optional fields the data lacks are omitted (never `undefined`, never `null`);
 * the required strings `nom`, `slug`, `race` the source lacks are served as `""`.
 */
import { arenaGet, dictionaryValue, postingsCount } from "../dataset/columns.ts"
import { spellFiliation } from "../dataset/filiation.ts"
import { performancesAt } from "../dataset/performances.ts"
import { type DatasetData, LINK_NAME_OF_ROW, type LinkColumn, NO_YEAR } from "../dataset/DatasetData.ts"
import { SEXES, type Sexe } from "../vocabulary.ts"
import { findRow } from "../dataset/idTable.ts"
import { ID_BYTES } from "../dataset/ids.ts"
import { linkName } from "../dataset/linkNames.ts"
import type { Equide, Performance, Reference, Resume } from "../schemas/equide.ts"
import { slugify } from "../text/fold.ts"

/** Writable view of a response type, to fill optional fields one by one (only when present). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Template of the public record's URL at the source registry (also published by meta and discovery). */
export const URL_FICHE_MODELE = "https://infochevaux.ifce.fr/fr/{slug}-{id}/infos-generales"

/** `URL_FICHE_MODELE` filled in. */
export const urlFiche = (slug: string, id: string): string => `https://infochevaux.ifce.fr/fr/${slug}-${id}/infos-generales`

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
/** The identifier's alphabet (base64url), as character codes: `idOf` and the byte writers (`api/jsonBytes.ts`). */
export const ID_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))

/**
 * The row's official identifier, as text: the same as `encodeId` (a test checks it), several times
 * faster (three ids per full record, 100 records per page). Its 22 characters are made in one call:
 * a string built piece by piece is a rope that `JSON.stringify` must flatten again.
 */
export const idOf = (data: DatasetData, row: number): string => {
  const b = data.ids
  const o = row * ID_BYTES
  const c = ID_CODES
  const x0 = (b[o] << 16) | (b[o + 1] << 8) | b[o + 2]
  const x1 = (b[o + 3] << 16) | (b[o + 4] << 8) | b[o + 5]
  const x2 = (b[o + 6] << 16) | (b[o + 7] << 8) | b[o + 8]
  const x3 = (b[o + 9] << 16) | (b[o + 10] << 8) | b[o + 11]
  const x4 = (b[o + 12] << 16) | (b[o + 13] << 8) | b[o + 14]
  const last = b[o + 15]
  return String.fromCharCode(
    c[x0 >>> 18], c[(x0 >>> 12) & 63], c[(x0 >>> 6) & 63], c[x0 & 63],
    c[x1 >>> 18], c[(x1 >>> 12) & 63], c[(x1 >>> 6) & 63], c[x1 & 63],
    c[x2 >>> 18], c[(x2 >>> 12) & 63], c[(x2 >>> 6) & 63], c[x2 & 63],
    c[x3 >>> 18], c[(x3 >>> 12) & 63], c[(x3 >>> 6) & 63], c[x3 & 63],
    c[x4 >>> 18], c[(x4 >>> 12) & 63], c[(x4 >>> 6) & 63], c[x4 & 63],
    c[last >>> 2], c[(last << 4) & 63]
  )
}

/**
 * String `i` of an arena, as the package has exported it: `arenaGet` itself. One `TextDecoder`
 * call (simdutf in Node) gives a flat string; building short ASCII names a character at a time,
 * once faster, costs twice as much with the `JSON.stringify` that follows (it flattens the rope).
 */
export const textOf = arenaGet

/** The row's name (`""` when the source has none). */
export const nomOf = (data: DatasetData, row: number): string => arenaGet(data.nom, row)

/** The row's own breed, as the record writes it (`""` when absent). */
export const raceOf = (data: DatasetData, row: number): string => dictionaryValue(data.race.values, data.race.codes[row])

/** The row's sex; every row has one (codes 1..4 follow SEXES, unknown source values are `Indeter`). */
export const sexeOf = (data: DatasetData, row: number): Sexe => SEXES[data.sexe.codes[row] - 1]

/** The row's birth year, or undefined. */
export const anneeOf = (data: DatasetData, row: number): number | undefined => {
  const year = data.year[row]
  return year === NO_YEAR ? undefined : year
}

/** The slug as served: the source's slug, rebuilt from the name where the Dataset only kept "deducible". */
export const slugOf = (data: DatasetData, row: number): string =>
  data.slugDeduced[row] === 1 ? slugify(nomOf(data, row)) : arenaGet(data.slug, row)

/**
 * The row with this id text, or undefined for an unknown id and equally for a malformed or
 * non-canonical one (the server answers one identical 404 for all of them).
 */
export const findEquide = (data: DatasetData, idText: string): number | undefined => {
  if (data.size === 0) return undefined
  const row = findRow(data.idTable, data.ids, idText)
  return row >= 0 ? row : undefined
}

/** Who `row` is, as a list row, a suggestion and a best offspring begin: id, nom, race, sexe, and the birth year when known. */
export const identityOf = (data: DatasetData, row: number): Pick<Resume, "id" | "nom" | "race" | "sexe" | "annee_naissance"> => {
  const annee = anneeOf(data, row)
  return {
    id: idOf(data, row),
    nom: nomOf(data, row),
    race: raceOf(data, row),
    sexe: sexeOf(data, row),
    ...(annee === undefined ? {} : { annee_naissance: annee })
  }
}

/** Summary of one row (list rows, default view). */
export const resume = (data: DatasetData, row: number): Resume => {
  const out: Mutable<Resume> = identityOf(data, row)
  const robe = data.robe.codes[row]
  if (robe !== 0) out.robe = dictionaryValue(data.robe.values, robe)
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
  const name = linkName(column, row)
  const race = column.race[row]
  if (parent < 0 && name === 0 && race === 0) return undefined
  const out: Mutable<Reference> = {}
  if (parent >= 0) out.id = idOf(data, parent)
  if (name === LINK_NAME_OF_ROW) out.nom = arenaGet(data.nom, parent)
  else if (name !== 0) out.nom = arenaGet(data.links.names, name)
  if (race !== 0) out.race = dictionaryValue(data.links.races, race)
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
  if (robe !== 0) out.robe = dictionaryValue(data.robe.values, robe)
  const pere = linkReference(data, data.links.pere, row)
  const mere = linkReference(data, data.links.mere, row)
  const pereDeMere = linkReference(data, data.links.pere_de_mere, row)
  const filiation = data.filiationSpelled[row] === 1 ? (spellFiliation(pere, mere, pereDeMere) ?? "") : arenaGet(data.filiation, row)
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
