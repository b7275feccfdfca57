/**
 * The OpenAPI document served at `/openapi.json`: generated from the API definition (parameters,
 * bounds and problems included, see `@equides/domain` `api/`), plus examples taken from the
 * loaded data where they are cheap: an identifier (the equid with the most direct offspring, so
 * that its pedigree and offspring are worth a look) and the first word of its name for `q`.
 */
import { Api, type DatasetData, foldWords, idOf, nomOf, operationsOf } from "@equides/domain"
import { OpenApi } from "effect/http-api"

/** The row with the most direct offspring (first in file order on ties), or undefined when empty. */
const exampleRow = (data: DatasetData): number | undefined => {
  if (data.size === 0) return undefined
  const offsets = data.progeny.offsets
  let best = 0
  for (let row = 1; row < data.size; row++) {
    if (offsets[row + 1] - offsets[row] > offsets[best + 1] - offsets[best]) best = row
  }
  return best
}

export const openApiDocument = (data: DatasetData): Record<string, any> => {
  const doc: Record<string, any> = OpenApi.fromApi(Api)
  const row = exampleRow(data)
  if (row === undefined) return doc
  const examples: Record<string, string | undefined> = { id: idOf(data, row), q: foldWords(nomOf(data, row))[0]?.toLowerCase() }
  for (const { operation } of operationsOf(doc)) {
    for (const parameter of operation.parameters ?? []) {
      const example = examples[parameter.name]
      if (example !== undefined && (parameter.in === "path" || parameter.name === "q")) parameter.example = example
    }
  }
  return doc
}
