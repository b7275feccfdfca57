/**
 * What each page shows, read from the Dataset with the API's own query functions (`equide`,
 * `descendance`, `linkReference`, `breedReference`…): the page adds only what lies one record away
 * (a parent's parents, a product's other parent, the name of a dangling ancestor).
 */
import { breedReference, type DatasetData, descendance, equide, equivalentGenerationsOf, findEquide, inbreedingOf, linkReference, type Reference } from "@equides/domain"
import type { ParentLinks } from "./pedigreeGrid.ts"
import type { ProgenyView } from "./progenyPage.ts"
import type { Grandparents, RecordView } from "./recordPage.ts"

const linksOfRow = (data: DatasetData, row: number): Grandparents => ({
  pere: linkReference(data, data.links.pere, row),
  mere: linkReference(data, data.links.mere, row)
})

/** The parentage links of the record an id names (undefined when it has no record). */
export const parentLinks = (data: DatasetData): ParentLinks => (id) => {
  const row = findEquide(data, id)
  return row === undefined ? undefined : linksOfRow(data, row)
}

const grandparents = (data: DatasetData, parent: Reference | undefined): Grandparents | undefined =>
  parent?.id === undefined ? undefined : parentLinks(data)(parent.id)

export const recordView = (data: DatasetData, row: number): RecordView => {
  const e = equide(data, row)
  return {
    equide: e,
    paternal: grandparents(data, e.pere),
    maternal: grandparents(data, e.mere),
    // F and t of the load's columns and the breed's reference, as `/v1/equides/{id}/genetique` gives them
    // (without its mean coancestry, one indirect pass over the whole pedigree on a breed's first use).
    genetique: {
      consanguinite: inbreedingOf(data.genetics, row),
      generations_equivalentes: equivalentGenerationsOf(data.genetics, row),
      reference: breedReference(data, row)
    }
  }
}

export const progenyView = (data: DatasetData, row: number, limite: number | undefined, offset: number | undefined): ProgenyView => {
  const page = descendance(data, row, limite, offset)
  const otherParents = page.donnees.map((product) => {
    const productRow = findEquide(data, product.id)
    if (productRow === undefined) return undefined
    // A record that is its own sire and dam in the source would name the subject twice: so be it.
    return data.links.pere.row[productRow] === row
      ? linkReference(data, data.links.mere, productRow)
      : linkReference(data, data.links.pere, productRow)
  })
  return { descendance: page, otherParents }
}
