/**
 * The private telemetry listener (design 3): Prometheus text at `/metrics` on
 * `METRICS_HOST:METRICS_PORT` (default 127.0.0.1:9464; port 0 picks a free one; `off` disables it).
 * A plain `node:http` server: it shares nothing with the public port but the `Telemetry` registry,
 * and the public port has no `/metrics` route (a 404 problem there).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Settings } from "./config.ts"
import { type Registry, Telemetry } from "./telemetry.ts"

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const handler = (registry: Registry) => (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => {
  const path = (request.url ?? "/").split("?")[0]
  if (path !== "/metrics") {
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: see /metrics\n")
    return
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("GET or HEAD\n")
    return
  }
  const body = registry.render()
  response.writeHead(200, {
    "content-type": METRICS_CONTENT_TYPE,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store"
  })
  response.end(request.method === "HEAD" ? undefined : body)
}

/** Serves `registry` on `host:port` for the life of the scope; gives the bound port. */
export const serveMetrics = (registry: Registry, host: string, port: number) =>
  Effect.acquireRelease(
    Effect.callback<Server, Error>((resume) => {
      const server = createServer(handler(registry))
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(port, host, () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  ).pipe(Effect.map((server) => (server.address() as AddressInfo).port))

/** The listener of the settings (none when `METRICS_PORT=off`). */
export const MetricsListenerLive: Layer.Layer<never, Error, Settings | Telemetry> = Layer.effectDiscard(
  Effect.gen(function*() {
    const settings = yield* Settings
    if (settings.metrics === undefined) return
    const { host, port } = settings.metrics
    const bound = yield* serveMetrics(yield* Telemetry, host, port)
    yield* Effect.logInfo(`Métriques sur http://${host.includes(":") ? `[${host}]` : host}:${bound}/metrics`)
  })
)
