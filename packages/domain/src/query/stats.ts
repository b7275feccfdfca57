/** Global counts (`GET /v1/stats`): read from index sizes, never by scanning rows. */
import { dictionarySize, type Postings, postingsCount } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { SEXES } from "../vocabulary.ts"
import type { Stats, Tranche } from "../schemas/reference.ts"

/** French reminder served with the counts. */
export const AVERTISSEMENT_PERFORMANCES =
  "« Sans performances » signifie seulement qu'aucun indice n'est publié pour l'équidé, et non qu'il n'a jamais couru ni concouru."

/** Keys (codes ≥ 1; code 0 is "absent") whose postings are not empty. */
const distinctPresent = (postings: Postings, keyCount: number): number => {
  let count = 0
  for (let key = 1; key < keyCount; key++) if (postingsCount(postings, key) > 0) count++
  return count
}

const cache = new WeakMap<DatasetData, Stats>()

/**
 * Global counts of the Dataset, computed once per Dataset (memoised by identity: the data is
 * read-only). `avec_filiation` counts records with at least one link carrying a readable id
 * (total − `anomalies.sans_filiation`); `par_sexe` lists the four sexes, zero counts included,
 * by count descending then value; min/max years come from the anomalies (aberrant ones included).
 */
export const stats = (data: DatasetData): Stats => {
  const known = cache.get(data)
  if (known !== undefined) return known
  const total = data.size
  const sansFiliation = data.anomalies.sans_filiation
  const avecPerformances = data.withPerformances.length
  const parSexe: Array<{ readonly valeur: string; readonly nombre: number }> = SEXES.map((valeur, i) => ({
    valeur,
    nombre: postingsCount(data.sexe.rows, i + 1)
  }))
  parSexe.sort((a, b) => b.nombre - a.nombre || (a.valeur < b.valeur ? -1 : a.valeur > b.valeur ? 1 : 0))
  const result: Stats = {
    total,
    avec_filiation: total - sansFiliation,
    sans_filiation: sansFiliation,
    avec_performances: avecPerformances,
    sans_performances: total - avecPerformances,
    nombre_de_races: distinctPresent(data.race.rows, dictionarySize(data.race.values)),
    nombre_de_robes: distinctPresent(data.robe.rows, dictionarySize(data.robe.values)),
    nombre_de_disciplines: distinctPresent(data.discipline.rows, dictionarySize(data.discipline.values)),
    annee_naissance_min: data.anomalies.annee_naissance_min,
    annee_naissance_max: data.anomalies.annee_naissance_max,
    par_sexe: parSexe satisfies ReadonlyArray<Tranche>,
    avertissement: AVERTISSEMENT_PERFORMANCES
  }
  cache.set(data, result)
  return result
}
