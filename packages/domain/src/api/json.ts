/**
 * A response schema's JSON body. Encoding a value through its schema both checks it and copies it
 * key by key; for the schemas of this API, built of strings, numbers, booleans, literals, `null`,
 * arrays and structs with no transformation anywhere, the encoded value is the value itself (when
 * it has exactly the schema's keys in the schema's order, which the query functions build and the
 * tests check, `json.test.ts`). Re-checking what typed query functions return cost a quarter of
 * an executed lookup (issue 9 item 3), so such schemas are written with `JSON.stringify` alone.
 * Whether a schema is plain is read from its AST, not assumed: a schema that gains a transformation
 * (a renamed key, a date written as text…) is encoded by `Schema.encodeSync` again, and the
 * `HttpApi` definition stays the one source of what is served.
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"

/**
 * Whether encoding leaves a value of `ast`'s type as it is. `visiting`: the suspended (recursive)
 * schemas being read, taken as plain while their own definition is read (a pedigree node).
 */
export const isPlain = (ast: SchemaAST.AST, visiting: Set<SchemaAST.AST> = new Set()): boolean => {
  if (ast.encoding !== undefined) return false
  const plain = (inner: SchemaAST.AST) => isPlain(inner, visiting)
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "Null":
    case "Literal":
      return true
    case "Arrays":
      return ast.encodingChecks === undefined && ast.elements.every(plain) && ast.rest.every(plain)
    case "Objects":
      return ast.encodingChecks === undefined && ast.indexSignatures.length === 0 &&
        ast.propertySignatures.every((property) => plain(property.type))
    case "Union":
      return ast.types.every(plain)
    case "Suspend": {
      if (visiting.has(ast)) return true
      visiting.add(ast)
      return plain(ast.thunk())
    }
    default:
      return false
  }
}

const utf8 = new TextEncoder()

/** `value`'s JSON text as its schema encodes it (bodies written many at a time, the exports, encode it once). */
export const jsonTextEncoder = <A, I>(schema: Schema.Codec<A, I>): (value: A) => string => {
  if (isPlain(schema.ast)) return (value) => JSON.stringify(value)
  const encode = Schema.encodeSync(schema)
  return (value) => JSON.stringify(encode(value))
}

/** `value`'s JSON body (UTF-8) as its schema encodes it. */
export const jsonEncoder = <A, I>(schema: Schema.Codec<A, I>): (value: A) => Uint8Array => {
  const text = jsonTextEncoder(schema)
  return (value) => utf8.encode(text(value))
}
