/**
 * `Disponibilite`: with no data loaded, every data route (`/v1/…`) answers a 503 problem with
 * `Retry-After`; the other routes (discovery, description) keep answering. The other 503s
 * (capacity reached, deadline passed) are decided by the request pipeline (`../pipeline.ts`),
 * around the router, where no handler has started yet or where a cut run can still be answered.
 *
 * `Quota`: declared by the API so that the OpenAPI document and the typed client know the 429.
 * The quota itself is enforced by the request pipeline, before routing (it must price the request
 * and see `If-None-Match` before anything runs): this route-level middleware lets requests through.
 */
import { Dataset, Disponibilite, Quota, ServiceSurcharge } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { problemResponse, RETRY_AFTER_NO_DATA_SECONDS } from "../problems.ts"

const isDataRoute = (path: string): boolean => path.startsWith("/v1/")

export const DisponibiliteLive: Layer.Layer<Disponibilite, never, Dataset> = Layer.effect(
  Disponibilite,
  Effect.gen(function*() {
    const data = yield* Dataset
    if (data.size > 0) return (httpEffect) => httpEffect
    const unavailable = problemResponse(
      new ServiceSurcharge({ detail: "Aucune donnée n'est chargée : le service ne peut pas répondre aux routes de données." }),
      { "retry-after": String(RETRY_AFTER_NO_DATA_SECONDS), "cache-control": "no-store" }
    )
    return (httpEffect, { endpoint }) => isDataRoute(endpoint.path) ? unavailable : httpEffect
  })
)

export const QuotaLive: Layer.Layer<Quota> = Layer.succeed(Quota, (httpEffect) => httpEffect)
