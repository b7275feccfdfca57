/** Direct offspring of one equid (`GET /v1/equides/{id}/descendance`). */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import type { Reference } from "../schemas/equide.ts"
import type { Descendance, Produit } from "../schemas/pedigree.ts"
import { idOf, type Mutable, nomOf, raceOf, sexeOf } from "./record.ts"

/** Page size when `limite` is not given. */
export const DESCENDANCE_LIMITE_DEFAUT = 50
/** Bounds of `limite`: an out-of-range value is brought back to the bound, not refused. */
export const DESCENDANCE_LIMITE_MIN = 1
export const DESCENDANCE_LIMITE_MAX = 100
/** `offset` when not given; its minimum (a negative value is brought back to 0). */
export const DESCENDANCE_OFFSET_DEFAUT = 0

/** `limite` brought back into 1..100 (truncated; a non-finite value gives the default). */
export const clampLimiteDescendance = (limite: number): number =>
  Number.isFinite(limite)
    ? Math.min(DESCENDANCE_LIMITE_MAX, Math.max(DESCENDANCE_LIMITE_MIN, Math.trunc(limite)))
    : DESCENDANCE_LIMITE_DEFAUT

/** `offset` brought back to ≥ 0 (truncated; a non-finite value gives 0). */
export const clampOffsetDescendance = (offset: number): number =>
  Number.isFinite(offset) ? Math.max(0, Math.trunc(offset)) : DESCENDANCE_OFFSET_DEFAUT

/** One offspring row as a Produit (`fiche_disponible` is always true: the row is in the Dataset). */
export const produit = (data: DatasetData, row: number): Produit => {
  const out: Mutable<Produit> = {
    id: idOf(data, row),
    nom: nomOf(data, row),
    race: raceOf(data, row),
    sexe: sexeOf(data, row),
    fiche_disponible: true
  }
  const year = data.year[row]
  if (year !== NO_YEAR) out.annee_naissance = year
  return out
}

/**
 * The subject as the `parent` Reference: its `id`, `nom` and `race` with `fiche_disponible: true`.
 * Unlike a parentage link there is no link breed here, so `race` is the subject's own record
 * breed (the `race` of its Equide); `nom`/`race` are omitted when the record lacks them, as in
 * any Reference.
 */
export const parentReference = (data: DatasetData, row: number): Reference => {
  const out: Mutable<Reference> = { id: idOf(data, row) }
  const nom = nomOf(data, row)
  if (nom !== "") out.nom = nom
  const race = raceOf(data, row)
  if (race !== "") out.race = race
  out.fiche_disponible = true
  return out
}

/**
 * Direct offspring of `row` (records having it as `pere` or `mere`), a slice of the progeny index,
 * already ordered by birth year ascending (absent last), folded name, then file order.
 * `limite` is brought back into 1..100 and `offset` to ≥ 0; an offset beyond the total gives an
 * empty `donnees` with `total` unchanged.
 */
export const descendance = (
  data: DatasetData,
  row: number,
  limite: number = DESCENDANCE_LIMITE_DEFAUT,
  offset: number = DESCENDANCE_OFFSET_DEFAUT
): Descendance => {
  const size = clampLimiteDescendance(limite)
  const skip = clampOffsetDescendance(offset)
  const start = data.progeny.offsets[row]
  const end = data.progeny.offsets[row + 1]
  const total = end - start
  const donnees: Array<Produit> = []
  for (let i = start + Math.min(skip, total), last = Math.min(end, start + skip + size); i < last; i++) {
    donnees.push(produit(data, data.progeny.rows[i]))
  }
  return { parent: parentReference(data, row), total, limite: size, offset: skip, donnees }
}
