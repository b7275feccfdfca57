/**
 * A pedigree's JSON body written straight as UTF-8 bytes (issue 9, item 3): the bytes
 * `jsonEncoder(Pedigree)` writes for `pedigree(…)`, checked equal by a property test
 * (`pedigreeBody.test.ts`) and, through the server, by the comparison of both answer paths. As for
 * the progeny page (`descendanceBody.ts`), a name's bytes are copied from the arena with JSON's
 * escapes instead of being decoded to a string, escaped and encoded back, and no tree of objects
 * is built for 31 to 511 nodes.
 *
 * The schema stays the one source of the shape: a change to `Noeud` or `Pedigree` that this
 * writer does not follow fails the property test.
 */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import { noeudsTheoriques, PEDIGREE_GENERATIONS_DEFAUT, pedigreeDepth } from "../query/pedigree.ts"
import { emptyWriter, utf8, writeIdentity } from "./jsonBytes.ts"

// A Noeud's fixed parts, in the schema's key order.
const OPEN_NOEUD = utf8.encode(`{"id":"`)
const YEAR = utf8.encode(`,"annee_naissance":`)
const GENERATION = utf8.encode(`,"generation":`)
const PERE = utf8.encode(`,"pere":`)
const MERE = utf8.encode(`,"mere":`)
const CLOSE = utf8.encode("}")

/** The JSON body of `pedigree(data, row, generations)`, as `jsonEncoder(Pedigree)` writes it. */
export const pedigreeBody = (data: DatasetData, row: number, generations: number = PEDIGREE_GENERATIONS_DEFAUT): Uint8Array => {
  const depth = pedigreeDepth(generations)
  const pere = data.links.pere.row
  const mere = data.links.mere.row
  // `noeuds` comes before the tree: counted first, as `pedigree` counts (an ancestor reached twice
  // counts twice).
  const count = (r: number, generation: number): number =>
    generation >= depth
      ? 1
      : 1 + (pere[r] >= 0 ? count(pere[r], generation + 1) : 0) + (mere[r] >= 0 ? count(mere[r], generation + 1) : 0)
  const w = emptyWriter()
  const node = (r: number, generation: number): void => {
    w.bytes(OPEN_NOEUD)
    writeIdentity(w, data, r)
    const year = data.year[r]
    if (year !== NO_YEAR) {
      w.bytes(YEAR)
      w.int(year)
    }
    w.bytes(GENERATION)
    w.int(generation)
    if (generation < depth) {
      if (pere[r] >= 0) {
        w.bytes(PERE)
        node(pere[r], generation + 1)
      }
      if (mere[r] >= 0) {
        w.bytes(MERE)
        node(mere[r], generation + 1)
      }
    }
    w.bytes(CLOSE)
  }
  w.ascii(`{"generations":${depth},"noeuds":${count(row, 0)},"noeuds_theoriques":${noeudsTheoriques(depth)},"arbre":`)
  node(row, 0)
  w.bytes(CLOSE)
  return w.take()
}
