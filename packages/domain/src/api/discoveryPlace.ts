/**
 * A route's place in the discovery document (`GET /`, `query/discovery.ts`), declared on its
 * definition (`annotateMerge(discoveryKey("fiche"))`), as `executionCost` declares its cost: the
 * document's `endpoints` and `gabarits_url` are derived from the `Api` value, not kept by hand.
 *
 * A route's entry in `endpoints` is its path with `{…}` parameters; it has an RFC 6570 template
 * in `gabarits_url` when it takes any parameter: its path's, then `{?a,b}` naming its query
 * parameters in their declaration order. Both maps follow the `Api`'s order of routes, unless a
 * route says which key it follows (`after`), and a route may give its template's query names in
 * another order than its schema's (`parameters`): both keep the published document as it was.
 */
import * as Context from "effect/Context"
import * as SchemaAST from "effect/SchemaAST"
import type { HttpApiEndpoint } from "effect/http-api"

export interface DiscoveryPlace {
  /** Its key in `endpoints` and `gabarits_url`: a French noun of its use (docs/decisions.md, "Discovery keys"). */
  readonly key: string
  /** The key it follows in both maps; by default the route before it in the `Api`. */
  readonly after?: string
  /** Its template's query parameters, in the order published; by default its query schema's names in order. */
  readonly parameters?: ReadonlyArray<string>
}

/** A route's place in the discovery document (undefined: not published). */
export const Discovery = Context.Reference<DiscoveryPlace | undefined>("@equides/domain/Discovery", { defaultValue: () => undefined })

/** A route's place in the discovery document, declared on its definition (`annotateMerge`). */
export const discoveryKey = (key: string, options: Omit<DiscoveryPlace, "key"> = {}) => Context.make(Discovery, { key, ...options })

/** One entry of the document: the route as served (`{id}`) and its template when it takes parameters. */
export interface DiscoveryEntry {
  readonly key: string
  readonly path: string
  readonly template: string | undefined
  readonly after?: string | undefined
}

/** `/v1/equides/:id` → `/v1/equides/{id}`. */
export const servedPath = (path: string): string => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}")

/** The names of a query schema's parameters, in declaration order (none for a route that admits none). */
export const queryNames = (query: HttpApiEndpoint.Top["query"]): ReadonlyArray<string> =>
  query !== undefined && SchemaAST.isObjects(query.ast) ? query.ast.propertySignatures.map((signature) => String(signature.name)) : []

/** The RFC 6570 template of a served path taking `names` as query parameters, or undefined when it takes no parameter. */
export const templateOf = (path: string, names: ReadonlyArray<string>): string | undefined =>
  !path.includes("{") && names.length === 0 ? undefined : names.length === 0 ? path : `${path}{?${names.join(",")}}`

/** Every endpoint that declares its place (`endpointsOf(Api)`: in the `Api`'s order), as entries. */
export const discoveryEntriesOf = (endpoints: ReadonlyArray<HttpApiEndpoint.Top>): Array<DiscoveryEntry> =>
  endpoints.flatMap((endpoint) => {
    const place = Context.get(endpoint.annotations, Discovery)
    if (place === undefined) return []
    const path = servedPath(endpoint.path)
    return [{ key: place.key, path, template: templateOf(path, place.parameters ?? queryNames(endpoint.query)), after: place.after }]
  })

/** `entries` in their published order: each in turn, or right after the key it says it follows. */
export const placed = <A extends { readonly key: string; readonly after?: string | undefined }>(entries: ReadonlyArray<A>): Array<A> => {
  const order: Array<A> = []
  for (const entry of entries.filter((e) => e.after === undefined)) order.push(entry)
  for (const entry of entries.filter((e) => e.after !== undefined)) {
    const at = order.findIndex((e) => e.key === entry.after)
    if (at < 0) throw new Error(`${entry.key} follows ${entry.after}, which is not placed`)
    order.splice(at + 1, 0, entry)
  }
  return order
}
