/** Handlers of the `service` group: discovery, probes, the OpenAPI document, meta. */
import { API_VERSION, Api, Dataset, discovery, meta, type Sante } from "@equides/domain"
import * as Effect from "effect/Effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Admission } from "../admission/Gatekeeper.ts"
import { prefersHtml } from "../admission/negotiation.ts"
import { servedDescription } from "../openapi.ts"
import { homePage } from "../explorer/home.ts"
import { RETRY_AFTER_NO_DATA_SECONDS } from "../problems.ts"

export const ServiceHandlers = HttpApiBuilder.group(
  Api,
  "service",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* Dataset
    const { quota } = yield* Admission
    const sante: Sante = { statut: data.size > 0 ? "ok" : "indisponible", lignes: data.size, version: API_VERSION }
    // The probes' 503 carries Retry-After, which a typed error value cannot: answered as a response.
    const probe = data.size > 0
      ? Effect.succeed(sante)
      : Effect.succeed(HttpServerResponse.jsonUnsafe(sante, {
        status: 503,
        headers: { "retry-after": String(RETRY_AFTER_NO_DATA_SECONDS), "cache-control": "no-store" }
      }))
    const html = HttpServerResponse.text(homePage(meta(data)).markup, {
      contentType: "text/html; charset=utf-8",
      headers: { vary: "Accept" }
    })
    const json = HttpServerResponse.jsonUnsafe(discovery(data), { headers: { vary: "Accept" } })
    const openapi = HttpServerResponse.jsonUnsafe(servedDescription(data).document)
    return handlers.handleAll({
      discovery: ({ request }) => Effect.succeed(prefersHtml(request.headers["accept"]) ? html : json),
      healthz: () => probe,
      // Still ready when the shared quota is degraded (requests pass without it), but it says so.
      readyz: () => (data.size > 0 && quota?.up === false ? Effect.succeed({ ...sante, quota: "degraded" as const }) : probe),
      openapi: () => Effect.succeed(openapi),
      meta: () => Effect.succeed(meta(data))
    })
  })
)
