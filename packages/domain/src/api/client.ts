/**
 * The typed client, derived from the API definition: every route as a method, its parameters and
 * answers typed, problems decoded into their classes (`Introuvable`, `ParametreInvalide`…).
 *
 * ```ts
 * const program = Effect.gen(function*() {
 *   const client = yield* EquidesApiClient
 *   const page = yield* client.equides.list({ query: { race: ["Pur Sang"], limite: 5 } })
 * }).pipe(Effect.provide(EquidesApiClient.layer("https://example.org")))
 * ```
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.ts"

export type ApiClient = HttpApiClient.ForApi<typeof Api>

/** A client of the API served at `baseUrl`, over the `HttpClient` in context. */
export const makeApiClient = (baseUrl: string): Effect.Effect<ApiClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, {
    transformClient: (client) => client.pipe(HttpClient.mapRequest(HttpClientRequest.prependUrl(baseUrl)))
  })

export class EquidesApiClient extends Context.Service<EquidesApiClient, ApiClient>()("@equides/domain/api/EquidesApiClient") {
  /** The client of `baseUrl`, over `fetch`. */
  static readonly layer = (baseUrl: string): Layer.Layer<EquidesApiClient> =>
    Layer.effect(EquidesApiClient, makeApiClient(baseUrl)).pipe(Layer.provide(FetchHttpClient.layer))
}
