/**
 * The Node server: configuration, then the Dataset (loaded before anything listens), then the
 * listener serving the application.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Dataset } from "@equides/domain"
import { datasetLayerFromFile } from "@equides/ingest"
import { Context, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import { AppLive, ROUTER_CONFIG } from "./App.ts"
import { serverConfig } from "./config.ts"

export const ServerLive = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* serverConfig
    yield* Effect.logInfo(`Chargement de ${config.dataFile}`)
    const started = Date.now()
    const dataset = datasetLayerFromFile(config.dataFile).pipe(
      Layer.tap((context) =>
        Effect.logInfo(`${Context.get(context, Dataset).size} fiches chargées en ${((Date.now() - started) / 1000).toFixed(1)} s`)
      )
    )
    return HttpRouter.serve(AppLive, { routerConfig: ROUTER_CONFIG }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
      // Provided last, so built first: the listener opens only once the data is in memory.
      Layer.provide(dataset)
    )
  })
)
