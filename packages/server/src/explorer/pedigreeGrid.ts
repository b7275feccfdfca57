/**
 * The pedigree as the cells of a bracket: generation `g` is column `g`, and the `2^g` slots of a
 * generation share the `2^N` rows of the deepest one, sire above dam at every level. Cells come in
 * depth-first order (subject, sire, sire's sire…, then the dams), which is also the reading order
 * of the indented list narrow screens get.
 *
 * A slot past a known horse is either a known ancestor (a node of the tree), a dangling one (named
 * by the link but absent from the data: its name, no link) or unknown. An ancestor present in
 * several slots gets a marker number, in order of first appearance, for the legend.
 */
import { type Noeud, PEDIGREE_GENERATIONS_MAX, type Pedigree, type Reference } from "@equides/domain"

export const PEDIGREE_MAX_ROWS = 2 ** PEDIGREE_GENERATIONS_MAX

export type Slot =
  | { readonly kind: "known"; readonly node: Noeud; readonly marker: number | undefined }
  | { readonly kind: "dangling"; readonly nom: string }
  | { readonly kind: "unknown" }

export interface PedigreeCell {
  readonly generation: number
  /** 1-based first row, and rows covered. */
  readonly row: number
  readonly span: number
  /** What this slot is to the horse on its left. */
  readonly role: "subject" | "sire" | "dam"
  readonly slot: Slot
}

export interface Repeated {
  readonly marker: number
  readonly id: string
  readonly nom: string
  readonly count: number
}

export interface PedigreeGrid {
  readonly generations: number
  readonly cells: ReadonlyArray<PedigreeCell>
  readonly repeated: ReadonlyArray<Repeated>
}

/** The links a node's record carries (to name dangling parents): `pere` and `mere` References. */
export type ParentLinks = (id: string) => { readonly pere?: Reference | undefined; readonly mere?: Reference | undefined } | undefined

const missing = (link: Reference | undefined): Slot =>
  link !== undefined && link.fiche_disponible === false && link.nom !== undefined && link.nom !== ""
    ? { kind: "dangling", nom: link.nom }
    : { kind: "unknown" }

export const pedigreeGrid = (tree: Pedigree, linksOf: ParentLinks): PedigreeGrid => {
  const depth = tree.generations
  const counts = new Map<string, number>()
  const visit = (node: Noeud): void => {
    if (node.id !== undefined) counts.set(node.id, (counts.get(node.id) ?? 0) + 1)
    if (node.pere !== undefined) visit(node.pere)
    if (node.mere !== undefined) visit(node.mere)
  }
  visit(tree.arbre)

  const markers = new Map<string, number>()
  const repeated: Array<Repeated> = []
  const cells: Array<PedigreeCell> = []
  const place = (slot: Slot, generation: number, index: number, role: PedigreeCell["role"]): void => {
    const span = 2 ** (depth - generation)
    cells.push({ generation, row: index * span + 1, span, role, slot })
  }
  const walk = (node: Noeud, generation: number, index: number, role: PedigreeCell["role"]): void => {
    let marker: number | undefined
    if (node.id !== undefined && (counts.get(node.id) ?? 0) > 1) {
      marker = markers.get(node.id)
      if (marker === undefined) {
        marker = markers.size + 1
        markers.set(node.id, marker)
        repeated.push({ marker, id: node.id, nom: node.nom ?? "", count: counts.get(node.id) ?? 0 })
      }
    }
    place({ kind: "known", node, marker }, generation, index, role)
    if (generation >= depth) return
    const links = node.pere === undefined || node.mere === undefined ? (node.id === undefined ? undefined : linksOf(node.id)) : undefined
    if (node.pere !== undefined) walk(node.pere, generation + 1, index * 2, "sire")
    else place(missing(links?.pere), generation + 1, index * 2, "sire")
    if (node.mere !== undefined) walk(node.mere, generation + 1, index * 2 + 1, "dam")
    else place(missing(links?.mere), generation + 1, index * 2 + 1, "dam")
  }
  walk(tree.arbre, 0, 0, "subject")
  return { generations: depth, cells, repeated }
}
