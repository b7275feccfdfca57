/**
 * Inbreeding of a horse (`GET /v1/equides/{id}/consanguinite`) and of a planned mating
 * (`GET /v1/accouplements`): Wright's coefficient within N generations, computed by the tabular
 * method, and explained ancestor by ancestor by the path method on the same cut graph.
 */
import type { DatasetData } from "../../dataset/DatasetData.ts"
import { linkName } from "../../dataset/linkNames.ts"
import type { Accouplement, AncetreCommun, Completude, Consanguinite } from "../../schemas/consanguinite.ts"
import { idOf, nomOf } from "../record.ts"
import { Coancestry } from "./coancestry.ts"
import { type Lineage, pedigreeFill, type PedigreeFill } from "./completude.ts"
import { cutGraph, type CutGraph } from "./cutGraph.ts"
import { commonAncestors } from "./paths.ts"

/** Depth served when `generations` is not given. */
export const CONSANGUINITE_GENERATIONS_DEFAUT = 8
export const CONSANGUINITE_GENERATIONS_MIN = 1
/** Deepest cut served (the server answers 400 outside 1..12). */
export const CONSANGUINITE_GENERATIONS_MAX = 12

const METHODE =
  "Coefficient de Wright F, calculé par la méthode tabulaire (coefficients de parenté) sur le graphe des ancêtres coupé à N générations ; " +
  "contributions des ancêtres communs par énumération des chemins sur le même graphe (Σ (1/2)^(n1+n2+1) · (1 + F_A) sur les paires de chemins " +
  "n'ayant que l'ancêtre en commun). Un ancêtre est une fiche ; un parent nommé sans fiche est un individu distinct à chaque apparition ; " +
  "un parent inconnu ne contribue pas."

const AVERTISSEMENT =
  "F ne tient compte que des ancêtres présents dans l'extrait et dans les N générations demandées : un pedigree incomplet ou une coupe courte " +
  "le sous-estiment (voir completude). Les ancêtres au-delà de la coupe sont supposés non apparentés et non consanguins. " +
  "Seules les fiches en ligne du registre font foi."

const lineages = new WeakMap<DatasetData, Lineage>()

/** The Dataset's parent links as a Lineage (a slot is known when its link resolves or names a parent). */
const lineageOf = (data: DatasetData): Lineage => {
  const known = lineages.get(data)
  if (known !== undefined) return known
  const { pere, mere } = data.links
  const lineage: Lineage = {
    sire: pere.row,
    dam: mere.row,
    sireKnown: (row) => pere.row[row] >= 0 || linkName(pere, row) !== 0,
    damKnown: (row) => mere.row[row] >= 0 || linkName(mere, row) !== 0
  }
  lineages.set(data, lineage)
  return lineage
}

/** `generations` brought into 1..12 (the server validates it; a direct call cannot ask for more). */
const depthOf = (generations: number): number =>
  Number.isFinite(generations)
    ? Math.min(CONSANGUINITE_GENERATIONS_MAX, Math.max(CONSANGUINITE_GENERATIONS_MIN, Math.trunc(generations)))
    : CONSANGUINITE_GENERATIONS_DEFAUT

/** What both routes compute for a foal of `sire` × `dam` (rows, -1: unknown). */
interface Inbreeding {
  readonly graph: CutGraph
  /** F of the foal, by the tabular method. */
  readonly coefficient: number
  readonly ancetres_communs: Array<AncetreCommun>
}

const byContribution = (a: AncetreCommun, b: AncetreCommun): number =>
  b.contribution - a.contribution || (a.nom < b.nom ? -1 : a.nom > b.nom ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** F of a foal of `sire` × `dam` (rows, -1: unknown) and its common ancestors, sorted. */
const inbreeding = (data: DatasetData, sire: number, dam: number, generations: number): Inbreeding => {
  const graph = cutGraph(lineageOf(data), sire, dam, generations)
  const coancestry = new Coancestry(graph, graph.foalSire, graph.foalDam)
  const ancetres_communs = commonAncestors(graph, coancestry).map((ancestor): AncetreCommun => ({
    id: idOf(data, graph.row[ancestor.node]),
    nom: nomOf(data, graph.row[ancestor.node]),
    positions_pere: ancestor.sireGenerations,
    positions_mere: ancestor.damGenerations,
    chemins: ancestor.pairs,
    contribution: ancestor.contribution,
    coefficient_ancetre: ancestor.inbreeding
  })).sort(byContribution)
  return { graph, coefficient: coancestry.coefficient, ancetres_communs }
}

/** Completeness of a filled pedigree (see `Completude`). */
const completude = (fill: PedigreeFill): Completude => {
  const par_generation: Array<number> = []
  let sireMean = 0
  let damMean = 0
  for (let g = 1; g <= fill.generations; g++) {
    par_generation.push((fill.sireSide[g - 1] + fill.damSide[g - 1]) / 2 ** g)
    // Each side holds 2^(g−1) slots at generation g.
    sireMean += fill.sireSide[g - 1] / 2 ** (g - 1) / fill.generations
    damMean += fill.damSide[g - 1] / 2 ** (g - 1) / fill.generations
  }
  return {
    par_generation,
    indice_maccluer: sireMean + damMean === 0 ? 0 : (2 * sireMean * damMean) / (sireMean + damMean),
    generations_equivalentes: par_generation.reduce((sum, share) => sum + share, 0)
  }
}

/** The inbreeding of `row`, `generations` deep (1..12). */
export const consanguinite = (
  data: DatasetData,
  row: number,
  generations: number = CONSANGUINITE_GENERATIONS_DEFAUT
): Consanguinite => {
  const depth = depthOf(generations)
  const lineage = lineageOf(data)
  const { ancetres_communs, coefficient } = inbreeding(data, lineage.sire[row], lineage.dam[row], depth)
  const fill = pedigreeFill(lineage, row, depth)
  let connus = 0
  for (let g = 0; g < depth; g++) connus += fill.sireSide[g] + fill.damSide[g]
  return {
    id: idOf(data, row),
    nom: nomOf(data, row),
    generations: depth,
    coefficient,
    ancetres_communs,
    completude: completude(fill),
    ancetres: { emplacements: 2 ** (depth + 1) - 2, connus, distincts: fill.distinct },
    methode: METHODE,
    avertissement: AVERTISSEMENT
  }
}

/**
 * The planned mating of `pere` × `mere` (rows, distinct), `generations` deep counted from the foal:
 * the foal's F, the parents' relationship R and the completeness of each parent's pedigree within
 * the cut (N − 1 generations of its own).
 */
export const accouplement = (
  data: DatasetData,
  pere: number,
  mere: number,
  generations: number = CONSANGUINITE_GENERATIONS_DEFAUT
): Accouplement => {
  const depth = depthOf(generations)
  const lineage = lineageOf(data)
  const { ancetres_communs, coefficient, graph } = inbreeding(data, pere, mere, depth)
  // Each parent's F within the same cut: the coancestry of its own parents in this graph.
  const parentInbreeding = (node: number) => new Coancestry(graph, graph.sire[node], graph.dam[node]).coefficient
  const relationship = (2 * coefficient) / Math.sqrt((1 + parentInbreeding(graph.foalSire)) * (1 + parentInbreeding(graph.foalDam)))
  return {
    pere: { id: idOf(data, pere), nom: nomOf(data, pere) },
    mere: { id: idOf(data, mere), nom: nomOf(data, mere) },
    generations: depth,
    coefficient,
    coefficient_de_parente: relationship,
    ancetres_communs,
    completude: {
      pere: completude(pedigreeFill(lineage, pere, depth - 1)),
      mere: completude(pedigreeFill(lineage, mere, depth - 1))
    }
  }
}
