/**
 * The Node server: configuration, then the Dataset (loaded before anything listens), then the
 * public listener serving the application, and the private telemetry listener.
 *
 * Shutdown (SIGTERM/SIGINT, see `main.ts`): the listener stops accepting, requests in flight are
 * given `SHUTDOWN_GRACE` to finish (`NodeHttpServer`'s graceful shutdown: `server.close()`, idle
 * keep-alive connections closed), then whatever is left is interrupted and the process exits 0.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Dataset } from "@equides/domain"
import { datasetLayerFromFile } from "@equides/ingest"
import { shareDataset } from "@equides/ingest/shared"
import { Cause, Context, Duration, Effect, Exit, Layer, References, Runtime } from "effect"
import { HttpRouter } from "effect/http"
import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { Admission } from "./admission.ts"
import { makeApp, ROUTER_CONFIG } from "./App.ts"
import { Executor, QueryThreads } from "./execution/Executor.ts"
import { serverConfig, Settings } from "./config.ts"
import { type FrontDoor, makeFrontDoor } from "./frontDoor.ts"
import { MetricsListenerLive } from "./metrics.ts"
import { StatsHandlers } from "./handlers/stats.ts"
import { COMMON_HEADERS } from "./responseHeaders.ts"
import { Telemetry } from "./telemetry.ts"

/** Time given to requests in flight at shutdown. */
export const SHUTDOWN_GRACE = Duration.seconds(10)

const REASONS: Readonly<Record<number, string>> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }

/**
 * A request Node's parser refuses never reaches the application (no request object exists): the
 * answer is written on the socket. Node's own default is a bare status line; this one is a problem
 * (`#erreur-requete-invalide`) with the headers every response carries. A request line and headers
 * over `maxHeaderSize` (16 KiB: a 100 KB path, a huge header) → 431; a request too slow → 408;
 * anything else unparsable → 400.
 */
export const answerClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  // As Node does: no answer when the peer is gone or a response has started on this connection.
  const inFlight = (socket as Duplex & { readonly _httpMessage?: { readonly headersSent?: boolean } })._httpMessage
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400
  const detail = status === 431
    ? "La ligne de requête et les en-têtes dépassent la taille admise (16 Kio en tout)."
    : status === 408
    ? "La requête n'a pas été reçue à temps."
    : "La requête est mal formée."
  const body = JSON.stringify({ type: "/documentation#erreur-requete-invalide", title: "Requête invalide", status, detail })
  const headers = {
    "Content-Type": "application/problem+json",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    ...COMMON_HEADERS,
    Connection: "close"
  }
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\n${head}\r\n${body}`)
}

/**
 * The public `node:http` server: Node's defaults (`maxHeaderSize` 16 KiB), problem answers for
 * parse errors, the front door (`frontDoor.ts`) before the application sees a request, and a
 * close that does not wait for keep-alive: `close()` only drops the keep-alive connections idle at
 * that moment, so a connection whose request was in flight would hold the shutdown until the
 * client's keep-alive timeout. While closing, idle connections are dropped every 100 ms (nothing is
 * added to the request path).
 */
class PublicServer extends Server {
  private readonly frontDoor: FrontDoor | undefined

  constructor(frontDoor: FrontDoor | undefined) {
    super()
    this.frontDoor = frontDoor
  }

  // The application's `request` listener is attached by the platform: a request the front door
  // answers is not emitted to it at all.
  override emit(event: string, ...args: Array<unknown>): boolean {
    if (event === "request" && this.frontDoor?.(args[0] as IncomingMessage, args[1] as ServerResponse) === true) return true
    return super.emit(event, ...args)
  }

  override close(callback?: (error?: Error) => void): this {
    const sweep = setInterval(() => this.closeIdleConnections(), 100)
    sweep.unref()
    this.once("close", () => clearInterval(sweep))
    return super.close(callback)
  }
}

export const makeNodeServer = (frontDoor?: FrontDoor): Server => {
  const server = new PublicServer(frontDoor)
  server.on("clientError", answerClientError)
  return server
}

/** The public listener, its front door opened on the server's `Admission`. */
export const publicListener = (options: NodeHttpServer.Options) =>
  Layer.unwrap(Effect.gen(function*() {
    const frontDoor = makeFrontDoor(yield* Admission, yield* Telemetry)
    return NodeHttpServer.layer(() => makeNodeServer(frontDoor), options)
  }))

/** The server over the given handlers of the `stats` group (the shutdown test injects slow ones). */
export const makeServerLive = (stats: typeof StatsHandlers = StatsHandlers) =>
  Layer.unwrap(
  Effect.gen(function*() {
    const settings = yield* serverConfig
    yield* Effect.logInfo(`Chargement de ${settings.dataFile}`)
    const started = Date.now()
    const loaded = datasetLayerFromFile(settings.dataFile)
    // Query workers read the columns the main thread serves: shared once here, so that the pool
    // (`execution/Executor.ts`) finds them shared and no second copy is made.
    const served = settings.workers === 0
      ? loaded
      : Layer.effect(Dataset, Effect.map(Dataset, (data) => shareDataset(data).data)).pipe(Layer.provide(loaded))
    const dataset = served.pipe(
      Layer.tap((context) =>
        Effect.gen(function*() {
          const seconds = (Date.now() - started) / 1000
          const registry = yield* Telemetry
          registry.loadSeconds = seconds
          // A raw load leaves hundreds of MiB of build buffers (some held until the loader's
          // worker threads have exited, a few milliseconds later) that the collector would only
          // return at its next full collection, which an idle server may not reach for long: one
          // now, when the process allows it (`npm start` passes --expose-gc).
          const gc = globalThis.gc
          if (gc !== undefined) {
            yield* Effect.sleep(Duration.millis(20))
            gc()
          }
          yield* Effect.logInfo(`${Context.get(context, Dataset).size} fiches chargées en ${seconds.toFixed(1)} s`)
        })
      )
    )
    const api = HttpRouter.serve(makeApp(stats), { routerConfig: ROUTER_CONFIG, disableLogger: true }).pipe(
      Layer.provide(publicListener({ port: settings.port, host: settings.host, gracefulShutdownTimeout: SHUTDOWN_GRACE })),
      Layer.provide(Admission.layer),
      // Provided after the listener, so built before it: the query workers are ready when it opens.
      Layer.provide(Executor.layer),
      // Provided last, so built first: the listener opens only once the data is in memory.
      Layer.provide(dataset),
      // Before even that: the query threads load their code while the main thread reads the data.
      Layer.provide(settings.workers === 0 ? Layer.empty : QueryThreads.layer(settings.workers))
    )
    return Layer.mergeAll(api, MetricsListenerLive).pipe(
      Layer.provide(Layer.mergeAll(Layer.succeed(Settings, settings), Telemetry.layer)),
      Layer.provide(Layer.succeed(References.MinimumLogLevel, settings.logLevel))
    )
  })
)

export const ServerLive = makeServerLive()

/** An interruption (the signal) is a normal end: 0, not the default 130. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/**
 * Runs `server` as the process's main program until SIGINT/SIGTERM, then exits 0 once it has shut
 * down; a start that fails (invalid configuration, unreadable file) exits non-zero.
 */
export const runServer = <E>(server: Layer.Layer<never, E>): void => Layer.launch(server).pipe(NodeRuntime.runMain({ teardown }))
