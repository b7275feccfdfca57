/**
 * `Disponibilite`: with no data loaded, every data route (`/v1/…`) answers a 503 problem with
 * `Retry-After`; the other routes (discovery, description) keep answering. A later issue adds the
 * concurrency limit and the deadline here (design 2, 3).
 *
 * `Quota`: declared by the API (429 with `Retry-After`); the rate limiter itself comes with a
 * later issue (design 3), in the request pipeline (`../pipeline.ts`), so this one lets requests through.
 */
import { Dataset, Disponibilite, Quota, ServiceSurcharge } from "@equides/domain"
import { Effect, Layer } from "effect"
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
