/**
 * A route's documentation example (the `/documentation` page: a runnable request and the start of
 * its real answer), declared on its definition (`annotateMerge(example(…))`) as its execution cost
 * and its place in the discovery document are: the server gathers them from the `Api` value
 * (`server/src/examples.ts`), in the `Api`'s order unless an example says which route's it follows.
 *
 * An example is drawn from the loaded data through a subject the server picks (a record worth a
 * look, common values); a route whose first answer is a whole-pedigree computation gives the
 * execution a query worker runs instead of an answer (the page never blocks the event loop on it).
 */
import { Context } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Execution } from "./answers.ts"
import { Discovery, placed, servedPath } from "./discoveryPlace.ts"

/** What examples are drawn from. */
export interface ExampleSubject {
  readonly data: DatasetData
  /** The record with the most direct offspring, and its id. */
  readonly row: number
  readonly id: string
  /** The first word of its name, lower case. */
  readonly word: string | undefined
  /** The most frequent breed and index code. */
  readonly race: string | undefined
  readonly indice: string | undefined
  /** The parents of its first product whose both parents have a record. */
  readonly mating: { readonly pere: number; readonly mere: number } | undefined
  /** Answers the server composes: the discovery document and the OpenAPI description. */
  readonly discovery: () => unknown
  readonly openapi: () => unknown
}

/** A request to run (its URL) and its answer, or the execution that answers it. */
export type RouteExample =
  | { readonly url: string; readonly answer: () => unknown }
  | { readonly url: string; readonly execution: Execution }

export interface ExampleDeclaration {
  /** The route's example, or undefined when the data has nothing to show for it. */
  readonly of: (subject: ExampleSubject) => RouteExample | undefined
  /** The route (its discovery key) whose example it follows on the page; by default the route before it in the `Api`. */
  readonly after?: string | undefined
}

/** A route's example (undefined: none). */
export const Example = Context.Reference<ExampleDeclaration | undefined>("@equides/domain/Example", { defaultValue: () => undefined })

/** A route's documentation example, declared on its definition (`annotateMerge`). */
export const example = (of: ExampleDeclaration["of"], options: { readonly after?: string } = {}) =>
  Context.make(Example, { of, after: options.after })

/** An example as the page shows it: the route as served (`/v1/equides/{id}`), then its request. */
export type ExampleRequest = { readonly route: string } & RouteExample

/**
 * The examples of `endpoints` (`endpointsOf(Api)`) for `subject`, in the page's order: the
 * `Api`'s, each placed after the route it names (by discovery key); a route with nothing to show
 * for this data is left out.
 */
export const routeExamples = (endpoints: ReadonlyArray<HttpApiEndpoint.Top>, subject: ExampleSubject): Array<ExampleRequest> => {
  const declared = endpoints.flatMap((endpoint) => {
    const declaration = Context.get(endpoint.annotations, Example)
    const key = Context.get(endpoint.annotations, Discovery)?.key ?? endpoint.path
    return declaration === undefined ? [] : [{ key, after: declaration.after, route: servedPath(endpoint.path), declaration }]
  })
  return placed(declared).flatMap(({ declaration, route }) => {
    const request = declaration.of(subject)
    return request === undefined ? [] : [{ route, ...request }]
  })
}
