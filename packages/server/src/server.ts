/**
 * The Node server: configuration, then the Dataset (loaded before anything listens), then the
 * public listener serving the application, and the private telemetry listener.
 *
 * Shutdown (SIGTERM/SIGINT, see `main.ts`): the listener stops accepting, requests in flight are
 * given `SHUTDOWN_GRACE` to finish (`NodeHttpServer`'s graceful shutdown: `server.close()`), every
 * request still arriving on an open connection is answered with `Connection: close`, idle
 * connections are closed (see `PublicServer`), then whatever is left is interrupted and the
 * process exits 0.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Dataset } from "@equides/domain"
import { datasetLayerFromFile } from "@equides/ingest"
import { Cause, Context, Duration, Effect, Exit, Layer, References, Runtime } from "effect"
import { HttpRouter } from "effect/http"
import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import { Admission } from "./admission.ts"
import { makeApp, ROUTER_CONFIG } from "./App.ts"
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

/** How long a connection must stay idle, once the server is closing, before it is closed. */
const CLOSING_IDLE_MS = 1000
/** Time a client gets to close its side after ours, before the socket is destroyed. */
const CLOSE_GRACE_MS = 500

/**
 * The public `node:http` server: Node's defaults (`maxHeaderSize` 16 KiB), problem answers for
 * parse errors, the front door (`frontDoor.ts`) before the application sees a request, and a
 * shutdown that answers every request that reached it.
 *
 * Node's own `close()` destroys every keep-alive connection idle at that moment, and one that
 * looks idle may hold a request already in the kernel's buffer, not yet parsed: under load, dozens
 * of requests were reset. Here, once closing: every response says `Connection: close` and Node
 * ends its connection after it; a connection seen idle for `CLOSING_IDLE_MS` across two sweeps
 * (so at least one poll of the event loop has read what had arrived) is half-closed, then
 * destroyed if the client does not close its side. Connections with a request in flight finish it.
 */
class PublicServer extends Server {
  private readonly frontDoor: FrontDoor | undefined
  private readonly sockets = new Set<Socket>()
  private closing = false

  constructor(frontDoor: FrontDoor | undefined) {
    super()
    this.frontDoor = frontDoor
    this.on("connection", (socket: Socket) => {
      this.sockets.add(socket)
      socket.once("close", () => this.sockets.delete(socket))
    })
  }

  // The application's `request` listener is attached by the platform: a request the front door
  // answers is not emitted to it at all.
  override emit(event: string, ...args: Array<unknown>): boolean {
    if (event === "request") {
      const response = args[1] as ServerResponse
      if (this.closing) response.shouldKeepAlive = false
      if (this.frontDoor?.(args[0] as IncomingMessage, response) === true) return true
    }
    return super.emit(event, ...args)
  }

  // Called by `close()`: idle connections are left to the sweep below.
  override closeIdleConnections(): void {
    if (!this.closing) super.closeIdleConnections()
  }

  override close(callback?: (error?: Error) => void): this {
    this.closing = true
    const idleSince = new Map<Socket, number>()
    const sweep = setInterval(() => {
      const now = Date.now()
      for (const socket of this.sockets) {
        if (isBusy(socket)) {
          idleSince.delete(socket)
          continue
        }
        const since = idleSince.get(socket)
        if (since === undefined) idleSince.set(socket, now)
        else if (now - since >= CLOSING_IDLE_MS) {
          idleSince.delete(socket)
          this.sockets.delete(socket)
          endGracefully(socket)
        }
      }
    }, 50)
    sweep.unref()
    this.once("close", () => clearInterval(sweep))
    return super.close(callback)
  }
}

/** A response is being produced on the socket. */
const isBusy = (socket: Socket): boolean => (socket as Socket & { readonly _httpMessage?: unknown })._httpMessage != null

const endGracefully = (socket: Socket): void => {
  socket.end()
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS)
  timer.unref()
  socket.once("close", () => clearTimeout(timer))
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
    const dataset = datasetLayerFromFile(settings.dataFile).pipe(
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
      // Provided last, so built first: the listener opens only once the data is in memory.
      Layer.provide(dataset)
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
