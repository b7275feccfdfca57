/**
 * The application: the HttpApi routes with their handlers and middleware, the documentation page
 * and the request pipeline. It needs a `Dataset` and the platform's HTTP services; `main.ts`
 * serves it over Node, tests over a test server.
 */
import { Api } from "@equides/domain"
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DocumentationRoute } from "./documentation.ts"
import { EquidesHandlers } from "./handlers/equides.ts"
import { ReferentielsHandlers } from "./handlers/referentiels.ts"
import { SearchHandlers } from "./handlers/search.ts"
import { ServiceHandlers } from "./handlers/service.ts"
import { StatsHandlers } from "./handlers/stats.ts"
import { DisponibiliteLive, QuotaLive } from "./middleware/availability.ts"
import { ValidationLive } from "./middleware/validation.ts"
import { PipelineLive } from "./pipeline.ts"

/** The handlers of every group, with the API middleware they apply (resolved when routes are built). */
export const HandlersLive = Layer.mergeAll(
  ServiceHandlers,
  EquidesHandlers,
  SearchHandlers,
  ReferentielsHandlers,
  StatsHandlers
).pipe(Layer.provide([ValidationLive, QuotaLive, DisponibiliteLive]))

export const ApiLive = HttpApiBuilder.layer(Api).pipe(Layer.provide(HandlersLive))

export const AppLive = Layer.mergeAll(ApiLive, DocumentationRoute, PipelineLive)

export { ROUTER_CONFIG } from "./pipeline.ts"
