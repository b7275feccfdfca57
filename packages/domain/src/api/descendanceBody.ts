/**
 * A progeny page's JSON body written straight as UTF-8 bytes (issue 9, item 3): the bytes
 * `jsonEncoder(Descendance)` writes for `descendance(…)`, checked equal by a property test
 * (`descendanceBody.test.ts`) and, through the server, by the comparison of both answer paths.
 *
 * Why: a page of 50 offspring went through three copies of every name (the arena's bytes decoded
 * to a string, the string escaped by `JSON.stringify`, the JSON encoded back to bytes): 30 % of an
 * executed progeny request's CPU. Here a name's bytes are copied from the arena with JSON's
 * escapes, and the dictionary values (breed, sex) are encoded once per dataset.
 *
 * The schema stays the one source of the shape: a change to `Produit` or `Descendance` that this
 * writer does not follow fails the property test.
 */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import {
  clampLimiteDescendance,
  clampOffsetDescendance,
  DESCENDANCE_LIMITE_DEFAUT,
  DESCENDANCE_OFFSET_DEFAUT
} from "../query/descendance.ts"
import { idOf, nomOf } from "../query/record.ts"
import { emptyWriter, jsonText, utf8, writeIdentity } from "./jsonBytes.ts"

// A Produit's fixed parts, in the schema's key order.
const OPEN_PRODUIT = utf8.encode(`{"id":"`)
const NEXT_PRODUIT = utf8.encode(`,{"id":"`)
const CLOSE_PRODUIT = utf8.encode(`,"fiche_disponible":true}`)
const YEAR = utf8.encode(`,"fiche_disponible":true,"annee_naissance":`)
const CLOSE = utf8.encode("}")

/** The JSON body of `descendance(data, row, limite, offset)`, as `jsonEncoder(Descendance)` writes it. */
export const descendanceBody = (
  data: DatasetData,
  row: number,
  limite: number = DESCENDANCE_LIMITE_DEFAUT,
  offset: number = DESCENDANCE_OFFSET_DEFAUT
): Uint8Array => {
  const size = clampLimiteDescendance(limite)
  const skip = clampOffsetDescendance(offset)
  const start = data.progeny.offsets[row]
  const end = data.progeny.offsets[row + 1]
  const total = end - start
  const w = emptyWriter()
  // The parent: `id`, then `nom` and `race` when not empty, then `fiche_disponible`.
  w.ascii(`{"parent":{"id":"${idOf(data, row)}"`)
  const nom = nomOf(data, row)
  if (nom !== "") {
    w.ascii(`,"nom":`)
    w.bytes(jsonText(nom))
  }
  if (data.race.codes[row] !== 0) {
    w.ascii(`,"race":`)
    w.dictionaryString(data.race.values, data.race.codes[row])
  }
  w.ascii(`,"fiche_disponible":true},"total":${total},"limite":${size},"offset":${skip},"donnees":[`)
  const first = start + Math.min(skip, total)
  for (let i = first, last = Math.min(end, start + skip + size); i < last; i++) {
    const child = data.progeny.rows[i]
    w.bytes(i === first ? OPEN_PRODUIT : NEXT_PRODUIT)
    writeIdentity(w, data, child)
    const year = data.year[child]
    if (year === NO_YEAR) {
      w.bytes(CLOSE_PRODUIT)
    } else {
      w.bytes(YEAR)
      w.int(year)
      w.bytes(CLOSE)
    }
  }
  w.ascii("]}")
  return w.take()
}
