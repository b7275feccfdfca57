/**
 * A route's documentation example (the `/documentation` page: a runnable request and the start of
 * its real answer), declared on its definition (`annotateMerge(example(…))`) as its execution cost
 * and its place in the discovery document are: the server gathers them from the `Api` value
 * (`server/src/examples.ts`), in the `Api`'s order unless an example says which route's it follows.
 *
 * An example is drawn from the loaded data through a subject the server picks (a record worth a
 * look, common values). A route that runs on the workers (`onWorkers`) gives the execution a query
 * worker runs instead of an answer (the page never blocks the event loop on it), and each worker
 * runs that execution before `/readyz` says ready (issue 24 item 6, the server's `warmUpWork`),
 * with the route's other code paths a first request would meet (`warms`).
 */
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import type { HttpApiEndpoint } from "effect/http-api"
import type { DatasetData } from "../dataset/DatasetData.ts"
import type { Execution } from "./answers.ts"
import { Discovery, placed, servedPath } from "./discoveryPlace.ts"
import { NotWarmed, OnWorkers } from "./workers.ts"

/** What examples are drawn from. */
export interface ExampleSubject {
  readonly data: DatasetData
  /** The record with the most direct offspring, and its id. */
  readonly row: number
  readonly id: string
  /** The words of its name, folded, lower case. */
  readonly words: ReadonlyArray<string>
  /** The most frequent breed and index code. */
  readonly race: string | undefined
  readonly indice: string | undefined
  /** The parents of its first product whose both parents have a record. */
  readonly mating: { readonly pere: number; readonly mere: number } | undefined
  /**
   * A record of the most numerous breed whose reference population the Dataset does not hold
   * (`unheldBreedRow`), undefined when every breed is held: found on first call, then kept (a pass
   * over the race values, 2–4 ms on the hard extract, that only the warm-up needs).
   */
  readonly unheldBreed: () => number | undefined
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
  /**
   * Executions of the route's other code paths (another order, view or filter), run with the
   * example's before ready; none by default.
   */
  readonly warms?: ((subject: ExampleSubject) => ReadonlyArray<Execution>) | undefined
  /** Why the example's own execution is not run before ready, when it is not (its `warms` still are). */
  readonly exampleNotWarmed?: string | undefined
}

/** A route's example (undefined: none). */
export const Example = Context.Reference<ExampleDeclaration | undefined>("@equides/domain/Example", { defaultValue: () => undefined })

/** A route's documentation example, declared on its definition (`annotateMerge`). */
export const example = (
  of: ExampleDeclaration["of"],
  options: { readonly after?: string; readonly warms?: ExampleDeclaration["warms"]; readonly exampleNotWarmed?: string } = {}
) => Context.make(Example, { of, after: options.after, warms: options.warms, exampleNotWarmed: options.exampleNotWarmed })

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

/**
 * The examples a server may send itself before it serves (its rehearsal): `routeExamples`, but for
 * the routes whose definition or example says why their first use is not warmed (`notWarmed`,
 * `exampleNotWarmed`), which a rehearsal would pay for as the warm-up would.
 */
export const rehearsedExamples = (endpoints: ReadonlyArray<HttpApiEndpoint.Top>, subject: ExampleSubject): Array<ExampleRequest> => {
  const left = new Set(
    endpoints.filter((endpoint) =>
      Context.get(endpoint.annotations, NotWarmed) !== undefined || Context.get(endpoint.annotations, Example)?.exampleNotWarmed !== undefined
    ).map((endpoint) => servedPath(endpoint.path))
  )
  return routeExamples(endpoints, subject).filter((request) => !left.has(request.route))
}

/**
 * `execution` with its query (if it has one) as the route's handler receives a request's: written
 * as the URL's parameters and decoded by the route's own definition, as HttpApi decodes it. An
 * execution's code is optimised for the shapes of the objects it has met: a warm-up's literal
 * (`{ code, produits_min, limite }`) has other shapes than a decoded query, and the first request
 * paid for V8 throwing the warm-up's optimised code away (a "wrong map" deoptimisation, then the
 * interpreter until the loop is compiled again: 10–20 ms for the ranking of parents at full scale).
 */
const asRequested = (endpoint: HttpApiEndpoint.Top, execution: Execution): Execution => {
  if (!("query" in execution) || endpoint.query === undefined) return execution
  // The query schemas are plain codecs of URL parameters (no services): `Top` does not say so.
  const codec = Schema.toCodecArrayFromSingle(endpoint.query) as unknown as Schema.Codec<unknown, unknown>
  const encoded = Schema.encodeUnknownExit(codec)(execution.query)
  const query = Exit.isSuccess(encoded) ? Schema.decodeUnknownExit(codec)(encoded.value) : encoded
  // A query its route refuses stays as written: its warm-up answers the refusal, as the request would.
  return Exit.isSuccess(query) ? { ...execution, query: query.value } as Execution : execution
}

/**
 * What each query worker runs before ready (issue 24 item 6), for `subject`: for every route of
 * `endpoints` on the workers (`onWorkers`) whose definition does not say why not (`notWarmed`),
 * its example's execution (unless its declaration says why not, `exampleNotWarmed`) and those it `warms`, their queries decoded as a request's
 * (`asRequested`). A route whose example has nothing to show for this data warms what the others do.
 */
export const warmUpExecutions = (
  endpoints: ReadonlyArray<HttpApiEndpoint.Top>,
  subject: ExampleSubject
): Array<{ readonly route: string; readonly execution: Execution }> =>
  endpoints.flatMap((endpoint) => {
    const declaration = Context.get(endpoint.annotations, Example)
    if (Context.get(endpoint.annotations, OnWorkers) === undefined || Context.get(endpoint.annotations, NotWarmed) !== undefined) return []
    const route = servedPath(endpoint.path)
    const example = declaration?.exampleNotWarmed === undefined ? declaration?.of(subject) : undefined
    const executions = [...(example !== undefined && "execution" in example ? [example.execution] : []), ...(declaration?.warms?.(subject) ?? [])]
    return executions.map((execution) => ({ route, execution: asRequested(endpoint, execution) }))
  })
