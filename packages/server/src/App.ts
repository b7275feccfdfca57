/**
 * The application: the HttpApi routes with their handlers and middleware, the documentation page,
 * the explorer's pages and the request pipeline. It needs a `Dataset`, the `Settings`, the `Telemetry` registry, the
 * `Admission` (shared with the Node server's front door) and the platform's HTTP services;
 * `main.ts` serves it over Node, tests over a test server.
 */
import { Api } from "@equides/domain"
import * as Layer from "effect/Layer"
import { HttpApiBuilder } from "effect/http-api"
import { DocumentationRoute } from "./documentation.ts"
import { ExplorerRoutes } from "./explorer/routes.ts"
import { ConsanguiniteHandlers } from "./handlers/consanguinite.ts"
import { GenetiqueHandlers } from "./handlers/genetique.ts"
import { EquidesHandlers } from "./handlers/equides.ts"
import { ExportHandlers } from "./handlers/exports.ts"
import { ReferentielsHandlers } from "./handlers/referentiels.ts"
import { SearchHandlers } from "./handlers/search.ts"
import { ServiceHandlers } from "./handlers/service.ts"
import { type StatsGroup, StatsHandlers } from "./handlers/stats.ts"
import { DisponibiliteLive, QuotaLive } from "./middleware/availability.ts"
import { ValidationLive } from "./middleware/validation.ts"
import { PipelineLive } from "./pipeline/Pipeline.ts"
import { ReferenceRoutes } from "./reference.ts"

/**
 * The handlers of every group, with the API middleware they apply (resolved when routes are built).
 * `stats` can be replaced (tests inject slow or counting handlers through it).
 */
export const makeHandlers = (stats: StatsGroup = StatsHandlers) =>
  Layer.mergeAll(
    ServiceHandlers,
    EquidesHandlers,
    ConsanguiniteHandlers,
    GenetiqueHandlers,
    SearchHandlers,
    ReferentielsHandlers,
    ExportHandlers,
    stats
  ).pipe(Layer.provide([ValidationLive, QuotaLive, DisponibiliteLive]))

/**
 * The whole application over the given handlers of the `stats` group. It needs an `Executor`
 * (`execution/Executor.ts`), provided apart so that a pool of workers is ready before the listener
 * opens: a request accepted while the application is still being built would wait unanswered.
 */
export const makeApp = (stats: StatsGroup = StatsHandlers) =>
  Layer.mergeAll(HttpApiBuilder.layer(Api).pipe(Layer.provide(makeHandlers(stats))), DocumentationRoute, ReferenceRoutes, ExplorerRoutes, PipelineLive)

