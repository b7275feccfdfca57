/**
 * Request parameters: one definition per parameter gives both its decoding schema and its
 * documentation, so that the OpenAPI document, the problem details of a refused value and the
 * accepted parameters cannot drift apart.
 *
 * Query values arrive as strings; the schemas here decode them strictly (an integer is read by
 * `readInt`, the one reading the quota's cost estimate shares). The OpenAPI generator would
 * describe the string side (`type: string` + pattern),
 * so every endpoint carries its `ParamDoc`s (annotation `ParamDocs`) and a transform that replaces
 * each parameter's schema with the documented one (`type: integer`, bounds, default, enum…).
 */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { OpenApi } from "effect/http-api"

/** A JSON Schema fragment, as it appears in the OpenAPI document. */
export type JsonSchemaFragment = { readonly [key: string]: unknown }

export interface ParamDoc {
  readonly name: string
  readonly in: "query" | "path"
  readonly required: boolean
  readonly description: string
  /** The documented schema of one value (replaces the derived, string-typed one). */
  readonly schema: JsonSchemaFragment
  /** What a valid value looks like, in French, for the `detail` of a refused value. */
  readonly expected: string
  /** The admitted values of an enumerated parameter, for the `indice` of a refused value. */
  readonly values?: ReadonlyArray<string>
}

/** Annotation carried by every endpoint: the documentation of its parameters. */
export class ParamDocs extends Context.Service<ParamDocs, ReadonlyArray<ParamDoc>>()("@equides/domain/api/ParamDocs") {}

/** The documentation of an endpoint's parameters, or none. */
export const paramDocsOf = (annotations: Context.Context<never>): ReadonlyArray<ParamDoc> =>
  Context.getOrElse(annotations, ParamDocs, () => [])

// -----------------------------------------------------------------------------
// Decoding schemas
// -----------------------------------------------------------------------------

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,16})?(?:[eE][+-]?[0-9]{1,3})?$/

/**
 * The one reading of an integer query value, shared by the decoder (`IntFromString`) and the
 * quota's cost estimate (`admission/quota.ts`), so that a request is priced for the value it is
 * answered with: a JSON number whose value is an integer within the safe range: `5`, and also
 * `5.0` or `5e0`, which JSON Schema (and so a validator reading the OpenAPI document's
 * `type: integer`) counts as the integer 5. Undefined for anything else: `+5`, `05`, spaces, `5.5`.
 */
export const readInt = (text: string): number | undefined => {
  if (!JSON_NUMBER.test(text)) return undefined
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : undefined
}

/** A query value read by `readInt`; anything it does not read is refused. */
export const IntFromString = Schema.String.check(
  Schema.makeFilter((text: string) => readInt(text) !== undefined, { expected: "un entier" })
).pipe(
  Schema.decodeTo(
    Schema.Int,
    SchemaTransformation.transform({ decode: (text: string) => readInt(text) ?? Number.NaN, encode: (n: number) => String(n) })
  )
)

/** A query value read as a JSON number (`0.0625`, `6.25e-2`); anything else is refused. */
export const NumberFromString = Schema.String.check(
  Schema.makeFilter((text: string) => JSON_NUMBER.test(text), { expected: "un nombre" })
).pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transform({ decode: (text: string) => Number(text), encode: (n: number) => String(n) })
  )
)

// -----------------------------------------------------------------------------
// Parameter definitions
// -----------------------------------------------------------------------------

/** One parameter: its schema (a struct field) and its documentation (name and location aside). */
export interface ParamDef<F extends Schema.Struct.Fields[string]> {
  readonly field: F
  readonly doc: Omit<ParamDoc, "name" | "in">
}

const range = (minimum: number | undefined, maximum: number | undefined): string =>
  minimum !== undefined && maximum !== undefined
    ? `de ${minimum} à ${maximum}`
    : minimum !== undefined
    ? `supérieur ou égal à ${minimum}`
    : maximum !== undefined
    ? `inférieur ou égal à ${maximum}`
    : ""

const boundsOf = (minimum: number | undefined, maximum: number | undefined): JsonSchemaFragment => ({
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum })
})

/** An integer refused (400) outside [minimum, maximum]. */
export const int = (options: {
  readonly minimum?: number
  readonly maximum?: number
  readonly default?: number
  readonly description: string
}) => {
  const { minimum, maximum } = options
  let schema = IntFromString
  if (minimum !== undefined && maximum !== undefined) schema = schema.check(Schema.isBetween({ minimum, maximum }))
  else if (minimum !== undefined) schema = schema.check(Schema.isGreaterThanOrEqualTo(minimum))
  else if (maximum !== undefined) schema = schema.check(Schema.isLessThanOrEqualTo(maximum))
  return {
    field: Schema.optionalKey(schema),
    doc: {
      required: false,
      description: options.description,
      schema: {
        type: "integer",
        ...boundsOf(minimum, maximum),
        ...(options.default === undefined ? {} : { default: options.default })
      },
      expected: `un entier ${range(minimum, maximum)}`.trim()
    }
  } satisfies ParamDef<Schema.Struct.Fields[string]>
}

/** A decimal number refused (400) outside [minimum, maximum]. */
export const decimal = (options: { readonly minimum: number; readonly maximum: number; readonly description: string }) => ({
  field: Schema.optionalKey(NumberFromString.check(Schema.isBetween({ minimum: options.minimum, maximum: options.maximum }))),
  doc: {
    required: false,
    description: options.description,
    schema: { type: "number", minimum: options.minimum, maximum: options.maximum },
    expected: `un nombre ${range(options.minimum, options.maximum)}`
  }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/**
 * An integer brought back into [minimum, maximum] instead of refused (the handler clamps with
 * `clamp`): any integer is accepted, so the bounds go to the description, not to the schema.
 */
export const clampedInt = (options: {
  readonly minimum: number
  readonly maximum: number
  readonly default: number
  readonly description: string
}) => ({
  field: Schema.optionalKey(IntFromString),
  doc: {
    required: false,
    description: `${options.description} De ${options.minimum} à ${options.maximum} ; une valeur hors de ces bornes est ramenée à la borne la plus proche, non refusée.`,
    schema: { type: "integer", default: options.default },
    expected: "un entier"
  }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/** `value` brought back into [minimum, maximum]. */
export const clamp = (value: number, minimum: number, maximum: number): number =>
  value < minimum ? minimum : value > maximum ? maximum : value

/** One of a closed list of values, exactly as written. */
export const oneOf = <const L extends ReadonlyArray<string>>(values: L, options: {
  readonly default?: L[number]
  readonly description: string
}) => ({
  field: Schema.optionalKey(Schema.Literals(values)),
  doc: {
    required: false,
    description: options.description,
    schema: { type: "string", enum: values, ...(options.default === undefined ? {} : { default: options.default }) },
    expected: `une des valeurs ${values.join(", ")}`,
    values
  }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/** A required string, non-empty (a blank one is refused by the query: the pattern says so). */
export const requiredText = (options: { readonly description: string }) => ({
  field: Schema.String.check(Schema.isNonEmpty()),
  doc: {
    required: true,
    description: options.description,
    schema: { type: "string", minLength: 1, pattern: "\\S" },
    expected: "une chaîne non vide"
  }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/**
 * An optional single value passed raw to the query engine, which validates it; `schema` is what it
 * documents (`type: integer`, `type: boolean`…).
 */
export const raw = (options: {
  readonly description: string
  readonly schema: JsonSchemaFragment
  readonly expected: string
}) => ({
  field: Schema.optionalKey(Schema.String),
  doc: { required: false, description: options.description, schema: options.schema, expected: options.expected }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/**
 * A repeatable parameter (`?race=A&race=B`), passed to the query engine (which also splits
 * commas and validates each value against its reference list); `items` documents one value and
 * `item`, when given, decodes it (by default any string).
 */
export const repeatable = <I extends Schema.Top = typeof Schema.String>(options: {
  readonly description: string
  readonly items: JsonSchemaFragment
  readonly expected: string
  readonly item?: I
}) => ({
  field: Schema.optionalKey(Schema.Array((options.item ?? Schema.String) as I)),
  doc: {
    required: false,
    description: options.description,
    schema: { type: "array", items: options.items },
    expected: options.expected
  }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

/** A path parameter taken as any string (the handler decides: e.g. a malformed id is a 404). */
export const pathText = (options: { readonly description: string; readonly schema: JsonSchemaFragment }) => ({
  field: Schema.String,
  doc: { required: true, description: options.description, schema: options.schema, expected: "une chaîne" }
}) satisfies ParamDef<Schema.Struct.Fields[string]>

// -----------------------------------------------------------------------------
// Parameter sets
// -----------------------------------------------------------------------------

type Defs = { readonly [name: string]: ParamDef<Schema.Struct.Fields[string]> }

/** The struct fields and the docs of a set of parameters, at one location. */
export interface Params<D extends Defs> {
  readonly fields: { readonly [K in keyof D]: D[K]["field"] }
  readonly docs: ReadonlyArray<ParamDoc>
}

export const params = <const D extends Defs>(location: "query" | "path", defs: D): Params<D> => {
  const fields: Record<string, unknown> = {}
  const docs: Array<ParamDoc> = []
  for (const [name, def] of Object.entries(defs)) {
    fields[name] = def.field
    docs.push({ name, in: location, ...def.doc })
  }
  return { fields: fields as Params<D>["fields"], docs }
}

/**
 * The query of a route that admits no parameter. Not `{}`: an empty struct accepts any object,
 * whatever `onExcessProperty` says (Effect 4 parses it as "not nullish"); a record of `never`
 * refuses every key.
 */
export const NoQuery = Schema.Record(Schema.String, Schema.Never)

// -----------------------------------------------------------------------------
// OpenAPI
// -----------------------------------------------------------------------------

interface OpenApiParameter {
  readonly name: string
  readonly in: string
  readonly [key: string]: unknown
}

const documentParameter = (docs: ReadonlyArray<ParamDoc>) => (parameter: OpenApiParameter): OpenApiParameter => {
  const doc = docs.find((d) => d.name === parameter.name && d.in === parameter.in)
  if (doc === undefined) return parameter
  return {
    ...parameter,
    description: doc.description,
    required: doc.required,
    schema: doc.schema,
    ...(doc.schema.type === "array" ? { style: "form", explode: true } : {})
  }
}

/**
 * Endpoint annotations: the parameter docs, and the OpenAPI transform that applies them to the
 * operation's parameters.
 */
export const documented = (...sets: ReadonlyArray<{ readonly docs: ReadonlyArray<ParamDoc> }>): Context.Context<never> => {
  const docs = sets.flatMap((set) => set.docs)
  return Context.merge(
    Context.make(ParamDocs, docs) as Context.Context<never>,
    OpenApi.annotations({
      transform: (operation) => ({
        ...operation,
        parameters: (operation.parameters as ReadonlyArray<OpenApiParameter> | undefined ?? []).map(documentParameter(docs))
      })
    })
  )
}
