/**
 * The Node server: configuration, then the Dataset (loaded before anything listens), then the
 * public listener serving the application (after its rehearsal, `rehearsal.ts`), and the private
 * telemetry listener.
 *
 * Shutdown (SIGTERM/SIGINT, see `main.ts`): the listener stops accepting, requests in flight are
 * given `SHUTDOWN_GRACE` to finish (`NodeHttpServer`'s graceful shutdown: `server.close()`), every
 * request still arriving on an open connection is answered with `Connection: close`, idle
 * connections are closed (see `PublicServer`), then whatever is left is interrupted and the
 * process exits 0.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Dataset } from "@equides/domain"
import { loadDataset } from "@equides/ingest"
import { shareDataset } from "@equides/ingest/shared"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Runtime from "effect/Runtime"
import { HttpRouter } from "effect/http"
import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Admission, markRehearsal } from "../admission/Gatekeeper.ts"
import { makeApp } from "../App.ts"
import { ROUTER_CONFIG } from "../admission/routes.ts"
import { DEFAULT_SETTINGS, logLevelConfig, serverConfig, Settings } from "../config.ts"
import { makeDirectLane } from "../execution/directLane.ts"
import { makeExportLane, type Served } from "../export/exportLane.ts"
import { servedLine } from "../pipeline/Pipeline.ts"
import { parquetFileName, parquetPath } from "../export/parquet.ts"
import { makeParquetOf } from "../export/parquetFile.ts"
import { parquetWriter } from "../export/parquetThread.ts"
import { Executor, QueryThreads } from "../execution/Executor.ts"
import { lowerV8Helpers } from "../execution/threadPriority.ts"
import { quotaLayer } from "../admission/redisQuota.ts"
import { Release } from "../release.ts"
import { reportDefectWith } from "./defects.ts"
import { type FrontDoor, makeFrontDoor } from "./frontDoor.ts"
import { MetricsListenerLive } from "../metrics.ts"
import { type StatsGroup, StatsHandlers } from "../handlers/stats.ts"
import { checkListenable, reportStartFailure } from "./startup.ts"
import { loadLogging, logPhase } from "./loadLog.ts"
import { answerBadHost, answerClientError, answerConnect, answerExpectation, refusesHost } from "./rawAnswers.ts"
import { Telemetry } from "../telemetry.ts"
import { rehearse, type RehearsalPlan, rehearsalTargets } from "./rehearsal.ts"

/** Time given to requests in flight at shutdown. */
export const SHUTDOWN_GRACE = Duration.seconds(10)

/** How long a connection must stay idle, once the server is closing, before it is closed. */
const CLOSING_IDLE_MS = 1000
/** Time a client gets to close its side after ours, before the socket is destroyed. */
const CLOSE_GRACE_MS = 500

/**
 * The public `node:http` server: Node's defaults (`maxHeaderSize` 16 KiB) but for the streams of
 * bodiless requests (`optimizeEmptyRequests`), problem answers for what Node would answer itself
 * (`rawAnswers.ts`: parse errors, `CONNECT`, `Expect`, `Host`), the front door (`frontDoor.ts`)
 * before the application sees a request, and a shutdown that answers every request that reached it.
 *
 * Node's own `close()` destroys every keep-alive connection idle at that moment, and one that
 * looks idle may hold a request already in the kernel's buffer, not yet parsed: under load, dozens
 * of requests were reset. Here, once closing: every response says `Connection: close` and Node
 * ends its connection after it; a connection seen idle for `CLOSING_IDLE_MS` across two sweeps
 * (so at least one poll of the event loop has read what had arrived) is half-closed, then
 * destroyed if the client does not close its side. Connections with a request in flight finish it.
 *
 * Given a rehearsal (`rehearsal.ts`), it runs it once the platform has attached the application,
 * over connections of its own it marks, and holds every other request until its end.
 */
class PublicServer extends Server {
  private readonly frontDoor: FrontDoor | undefined
  private readonly sockets = new Set<Socket>()
  private closing = false
  /** The rehearsal's connections (`rehearsal.ts`). */
  private readonly rehearsing = new WeakSet<Socket>()
  /** Requests from outside that arrived before the rehearsal's end, to be served after it; undefined once it has ended. */
  private held: Array<[IncomingMessage, ServerResponse]> | undefined

  constructor(frontDoor: FrontDoor | undefined, rehearsal: Rehearsal | undefined) {
    // The missing `Host` is refused in `emit`, as a problem (Node's own answer is a bare 400).
    // A request announcing no body (every GET, HEAD and OPTIONS of this read-only API) arrives
    // with its stream already ended: Node skips its `data`, `end` and `close` life cycle, about
    // 2.6 µs of the 304's 22.6 µs of CPU (docs/decisions.md). Nothing here listens to a request's
    // stream events: a client that leaves is seen on the response (`close`, `destroyed`), and a
    // request with a body keeps its stream, which the application drains or refuses.
    super({ requireHostHeader: false, optimizeEmptyRequests: true })
    this.frontDoor = frontDoor
    this.on("clientError", answerClientError)
    this.on("connect", answerConnect)
    this.on("checkExpectation", answerExpectation)
    this.on("connection", (socket: Socket) => {
      this.sockets.add(socket)
      socket.once("close", () => this.sockets.delete(socket))
    })
    if (rehearsal !== undefined) {
      this.held = []
      // Once the platform has attached the application (after the listener opened).
      const onListener = (event: string | symbol) => {
        if (event !== "request") return
        this.off("newListener", onListener)
        setImmediate(() => this.rehearse(rehearsal))
      }
      this.on("newListener", onListener)
    }
  }

  private rehearse({ plan, onEnd }: Rehearsal): void {
    const started = performance.now()
    // However the rehearsal goes, the world is not kept waiting beyond this.
    const limit = setTimeout(() => this.release(), REHEARSAL_LIMIT_MS)
    limit.unref()
    void rehearse(this, plan, (socket) => this.rehearsing.add(socket), () => this.closing).then((answered) => {
      clearTimeout(limit)
      this.release()
      onEnd(answered, performance.now() - started)
    })
  }

  /** Ends the rehearsal's hold: the requests that waited are served, in their order. */
  private release(): void {
    const held = this.held
    if (held === undefined) return
    this.held = undefined
    for (const [request, response] of held) this.emit("request", request, response)
  }

  // The application's `request` listener is attached by the platform: a request the front door
  // answers is not emitted to it at all.
  override emit(event: string, ...args: Array<unknown>): boolean {
    if (event === "request") {
      const request = args[0] as IncomingMessage
      const response = args[1] as ServerResponse
      if (this.rehearsing.has(request.socket)) markRehearsal(request)
      else if (this.held !== undefined) {
        this.held.push([request, response])
        return true
      }
      if (this.closing) response.shouldKeepAlive = false
      if (refusesHost(request)) {
        answerBadHost(response)
        return true
      }
      if (this.frontDoor?.(request, response, () => super.emit(event, ...args)) === true) return true
    }
    return super.emit(event, ...args)
  }

  // Called by `close()`: idle connections are left to the sweep below.
  override closeIdleConnections(): void {
    if (!this.closing) super.closeIdleConnections()
  }

  override close(callback?: (error?: Error) => void): this {
    this.closing = true
    this.release()
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

/** A rehearsal to run once the application is attached (`rehearsal.ts`), and what to do at its end. */
export interface Rehearsal {
  readonly plan: RehearsalPlan
  readonly onEnd: (answered: number, ms: number) => void
}

/** The longest requests from outside wait for the rehearsal to end. */
const REHEARSAL_LIMIT_MS = 10_000

export const makeNodeServer = (frontDoor?: FrontDoor, rehearsal?: Rehearsal): Server => new PublicServer(frontDoor, rehearsal)

/**
 * The rehearsal `REHEARSAL_PASSES` asks for, over the loaded data (none for 0 passes or no data).
 * At its end, logged, the server is ready and V8's helper threads are lowered below the requests
 * (`lowerV8Helpers`); not before, where their compile jobs speed the load, the workers' warm-ups and
 * the rehearsal (lowered from the process's start instead, `--starts` on the plain extract 3.42 →
 * 4.24 and 3.09 → 3.66 s in two pairs). Without a rehearsal they keep Node's priority.
 */
const rehearsalOf = Effect.gen(function*() {
  const { rehearsalPasses } = yield* Settings
  const targets = rehearsalPasses === 0 ? [] : rehearsalTargets(yield* Dataset)
  if (targets.length === 0) return undefined
  const log = Effect.runForkWith(yield* Effect.context<never>())
  const onEnd = (answered: number, ms: number) => {
    lowerV8Helpers()
    void log(Effect.logInfo(`Répétition : ${answered} requêtes en ${(ms / 1000).toFixed(2)} s`))
  }
  return { plan: { targets, passes: rehearsalPasses }, onEnd } satisfies Rehearsal
})

/**
 * The public listener, its front door opened on the server's `Admission` (without one, when
 * `frontDoor` is false, every request goes through the pipeline: the answers must be the same),
 * and the rehearsal run before it answers anyone. It opens once the `Executor`, when there is one,
 * is ready.
 */
export const publicListener = (options: NodeHttpServer.Options, frontDoor = true) =>
  Layer.unwrap(Effect.gen(function*() {
    const opened = frontDoor ? yield* exportingFrontDoor : undefined
    const rehearsal = yield* rehearsalOf
    // Built while the query workers warm up; the listener opens once they have.
    const executor = yield* Effect.serviceOption(Executor)
    if (Option.isSome(executor)) yield* executor.value.ready
    return NodeHttpServer.layer(() => {
      const server = makeNodeServer(opened?.door, rehearsal)
      if (opened?.onListening !== undefined) server.once("listening", opened.onListening)
      return server
    }, options)
  }))

/**
 * The front door over the server's `Admission`, with its direct lane and its export lane; and what
 * to do once the listener is open (the Parquet file's write with `EXPORT_PARQUET=start`).
 */
const exportingFrontDoor = Effect.gen(function*() {
  const gatekeeper = yield* Admission
  const registry = yield* Telemetry
  const data = yield* Dataset
  const settings = yield* Settings
  const context = yield* Effect.context<never>()
  const onDefect = reportDefectWith(context)
  // Under debug logging (the door closed to all but the exports) the door writes an export's line itself.
  const logServed = Effect.runSyncWith(context)
  const onServed: Served | undefined = gatekeeper.frontDoorOpen ? undefined : (exchange, status) => logServed(servedLine(exchange, status))
  const parquetOf = makeParquetOf(parquetPath(data, settings.exportDir), parquetFileName(data), parquetWriter(data, registry))
  // At start: in its own thread once the listener is open, so that it never delays readiness; the
  // server serves meanwhile (a request for the file waits for the same write).
  const onListening = settings.exportParquet === "start" && data.size > 0 ? () => void parquetOf().catch(onDefect) : undefined
  const exports = makeExportLane(gatekeeper, data, registry, parquetOf, settings.exportConcurrency, settings.rateLimitRate, onDefect, onServed)
  registry.gauge("equides_exports_running", "Exports streaming now (at most EXPORT_CONCURRENCY).", exports.running)
  return { door: makeFrontDoor(gatekeeper, registry, makeDirectLane(data), undefined, onDefect, exports, onServed), onListening }
})

/** The server over the given handlers of the `stats` group (the shutdown test injects slow ones). */
export const makeServerLive = (stats: StatsGroup = StatsHandlers) =>
  Layer.unwrap(
  Effect.gen(function*() {
    const settings = yield* serverConfig
    // Before the load, so that an address that cannot be opened fails the start at once.
    yield* checkListenable(settings.host, settings.port, "PORT")
    if (settings.metrics !== undefined) yield* checkListenable(settings.metrics.host, settings.metrics.port, "METRICS_PORT")
    yield* Effect.logInfo(`Chargement de ${settings.dataFile}`)
    const started = Date.now()
    // Query workers read the columns the main thread serves: shared here, in the same step as the
    // load, so that the pool finds them shared and nothing keeps the private arrays of an ingested
    // Dataset alive (a layer of its own would hold them for the server's lifetime).
    // Whether the Dataset was built from the source (not read from its snapshot): see the collection below.
    let indexed = false
    const served = Layer.effect(
      Dataset,
      Effect.gen(function*() {
        const logging = yield* loadLogging
        const data = yield* loadDataset(settings.dataFile, {
          ...logging,
          onPhase: (phase) => {
            if (phase === "indexing") indexed = true
            logging.onPhase?.(phase)
          }
        })
        return settings.workers === 0 ? data : shareDataset(data).data
      })
    )
    const dataset = served.pipe(
      Layer.tap((context) =>
        Effect.gen(function*() {
          const seconds = (Date.now() - started) / 1000
          const registry = yield* Telemetry
          registry.loadSeconds = seconds
          // A raw load leaves hundreds of MiB of build buffers (some held until the loader's
          // worker threads have exited, a few milliseconds later) that the collector would only
          // return at its next full collection, which an idle server may not reach for long: one
          // now, when the process allows it (`main.ts` starts with --expose-gc, `processSettings.ts`).
          // A snapshot read leaves next to nothing (its one buffer is the Dataset): no collection,
          // 0.1–0.4 s of the start on this machine.
          const gc = globalThis.gc
          if (gc !== undefined && indexed) {
            yield* logPhase("collecting")
            yield* Effect.sleep(Duration.millis(20))
            gc()
          }
          yield* Effect.logInfo(`${Context.get(context, Dataset).size} fiches chargées en ${seconds.toFixed(1)} s`)
        })
      )
    )
    const api = HttpRouter.serve(makeApp(stats), { routerConfig: ROUTER_CONFIG, disableLogger: true }).pipe(
      Layer.provide(publicListener({ port: settings.port, host: settings.host, gracefulShutdownTimeout: SHUTDOWN_GRACE })),
      Layer.provide(Admission.layer.pipe(Layer.provide(Layer.merge(quotaLayer(settings), Release.layer)))),
      // Provided after the listener, so built before it; the listener opens once it is `ready` (the query workers warmed up).
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

/** An interruption (the signal) is a normal end: 0, not the default 130; a failure is 1. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) ? onExit(Cause.hasInterruptsOnly(exit.cause) ? 0 : 1) : onExit(0)

/** What a failed start needs to say it: `LOG_LEVEL`, and the public address (from the defaults when the configuration itself failed). */
const startContext = Effect.gen(function*() {
  const level = yield* Effect.orElseSucceed(Effect.gen(function*() {
    return yield* logLevelConfig
  }), () => DEFAULT_SETTINGS.logLevel)
  const listening = yield* Effect.orElseSucceed(Effect.gen(function*() {
    const { host, port } = yield* serverConfig
    return { host, port }
  }), () => ({ host: DEFAULT_SETTINGS.host, port: DEFAULT_SETTINGS.port }))
  return { debug: LogLevel.isGreaterThanOrEqualTo("Debug", level), listening }
})

/**
 * Runs `server` as the process's main program until SIGINT/SIGTERM, then exits 0 once it has shut
 * down; a start that fails (invalid configuration, address in use, unreadable file) logs one line
 * saying why (`startup.ts`) and exits 1.
 */
export const runServer = <E>(server: Layer.Layer<never, E>): void =>
  Layer.launch(server).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.flatMap(startContext, ({ debug, listening }) =>
          Effect.andThen(reportStartFailure(cause, debug, listening), Effect.failCause(cause)))
    ),
    NodeRuntime.runMain({ teardown, disableErrorReporting: true })
  )
