/**
 * The OpenAPI document served at `/openapi.json`: generated from the API definition (parameters,
 * bounds, problems and headers included, see `@equides/domain` `api/`), plus an example on every
 * parameter: taken from the loaded data where the value is data (`examples.ts`), else the
 * parameter's default or first admitted value.
 */
import { Api, type DatasetData, operationsOf } from "@equides/domain"
import { OpenApi } from "effect/http-api"
import { type Examples, examplesOf } from "./examples.ts"

type Schema = Record<string, any>

/** A value the documented schema admits and that says something: its default, else its first admitted value. */
const schemaExample = (schema: Schema): unknown => {
  if (schema.type === "array") {
    const item = schemaExample(schema.items ?? {})
    return item === undefined ? undefined : [item]
  }
  return schema.default ?? schema.enum?.[0] ?? schema.minimum
}

/** The document, each parameter carrying an example (`fromData` first, when of the parameter's shape). */
export const openApiDocument = (fromData: Readonly<Record<string, unknown>>): Record<string, any> => {
  const doc: Record<string, any> = OpenApi.fromApi(Api)
  for (const { operation } of operationsOf(doc)) {
    for (const parameter of operation.parameters ?? []) {
      // A value from the data fits only a parameter of its shape (`sexe` is a list on the filters, one value elsewhere).
      const data = fromData[parameter.name]
      const fits = data !== undefined && Array.isArray(data) === (parameter.schema?.type === "array")
      const example = fits ? data : schemaExample(parameter.schema ?? {})
      if (example !== undefined) parameter.example = example
    }
  }
  return doc
}

export interface ServedDescription {
  readonly document: Record<string, any>
  readonly examples: Examples
}

const described = new WeakMap<DatasetData, ServedDescription>()

/** The document and the examples of a Dataset, made once (`/openapi.json` and `/documentation` share them). */
export const servedDescription = (data: DatasetData): ServedDescription => {
  const known = described.get(data)
  if (known !== undefined) return known
  let document: Record<string, any> = {}
  const examples = examplesOf(data, () => document)
  document = openApiDocument(examples.parameters)
  const made = { document, examples }
  described.set(data, made)
  return made
}
