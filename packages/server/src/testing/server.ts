/**
 * The application on a real Node server on port 0 (front door included unless told), and calls
 * against it: through an `HttpClient`, or raw (`node:http`, or a socket) as a client sees the wire.
 */
import type { Dataset } from "@equides/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpRouter, HttpServer } from "effect/http"
import { request as httpRequest } from "node:http"
import { mkdtempSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Admission } from "../admission/Gatekeeper.ts"
import { ROUTER_CONFIG } from "../admission/routes.ts"
import { makeApp } from "../App.ts"
import { parseTrustedProxies, type ServerSettings, settingsLayer } from "../config.ts"
import { Executor } from "../execution/Executor.ts"
import type { StatsGroup } from "../handlers/stats.ts"
import { publicListener } from "../node/server.ts"
import { Release, type ReleaseInfo } from "../release.ts"
import { Telemetry } from "../telemetry.ts"

// A test server over a given Dataset, and raw HTTP calls against it.

/** The production Node server (`publicListener`, front door included unless told) on port 0, and a fetch `HttpClient` aimed at it. */
const nodeTestServer = (frontDoor: boolean) =>
  HttpServer.layerTestClient.pipe(
    Layer.provide(
      Layer.fresh(FetchHttpClient.layer).pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false })))
    ),
    Layer.provideMerge(publicListener({ port: 0 }, frontDoor))
  )

/**
 * The test clients connect over loopback (IPv4 or IPv6): as `TRUSTED_PROXIES`, loopback makes
 * `X-Forwarded-For` name the caller, so one test can act as many callers.
 */
export const TRUSTED_LOOPBACK: ServerSettings["trustedProxies"] = (() => {
  const parsed = parseTrustedProxies("127.0.0.1, ::1")
  if (parsed._tag === "Failure") throw new Error(parsed.failure)
  return parsed.success
})()

/** Settings of the test servers: the defaults, quota off and no metrics listener unless a test says otherwise. */
/** Test servers write the Parquet file when a test asks for it, not at each start, and rehearse only when a test asks. */
export const TEST_SETTINGS: Partial<ServerSettings> = { rateLimitRate: 0, metrics: undefined, workers: 0, exportParquet: "request", rehearsalPasses: 0 }

export interface TestServerOptions {
  readonly settings?: Partial<ServerSettings>
  /** Handlers of the `stats` group to use instead of the real ones (slow or counting ones). */
  readonly stats?: StatsGroup
  /** Where queries run, instead of what `settings.workers` says (a pool of slow workers). */
  readonly executor?: typeof Executor.layer
  /** `false`: no front door, every request through the pipeline. */
  readonly frontDoor?: boolean
  /** The release the ETags are seeded with, instead of this build's own (another build, another version). */
  readonly release?: ReleaseInfo
}

/**
 * The application on a real Node server (port 0), and an `HttpClient` aimed at it; `Settings` and
 * the `Telemetry` registry are available to the tests too.
 */
export const testServer = <E>(dataset: Layer.Layer<Dataset, E>, options: TestServerOptions = {}) =>
  HttpRouter.serve(makeApp(options.stats), { disableLogger: true, disableListenLog: true, routerConfig: ROUTER_CONFIG }).pipe(
    Layer.provideMerge(nodeTestServer(options.frontDoor ?? true)),
    Layer.provideMerge(Admission.layer),
    Layer.provide(options.release === undefined ? Release.layer : Layer.succeed(Release, options.release)),
    Layer.provide(options.executor ?? Executor.layer),
    Layer.provide(dataset),
    // A directory of its own for the Parquet export: test datasets share one fingerprint (zeros), so one name.
    Layer.provideMerge(Layer.mergeAll(settingsLayer({ ...TEST_SETTINGS, exportDir: mkdtempSync(join(tmpdir(), "equides-exports-")), ...options.settings }), Telemetry.layer))
  )

/** The test server's address (`http://127.0.0.1:<port>`), for raw calls. */
export const serverUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  return address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${address.port}`
})

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any
}

/** One request (GET unless told), answered whatever its status. */
export const call = (path: string, options: { readonly method?: "GET" | "HEAD" | "POST" | "DELETE" | "PUT" | "OPTIONS"; readonly headers?: Record<string, string> } = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.make(options.method ?? "GET")(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    const response = yield* client.execute(request)
    const text = yield* response.text
    let json: any
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    const reply: Reply = { status: response.status, headers: response.headers as Record<string, string>, text, json }
    return reply
  }).pipe(Effect.orDie)

export interface RawReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The body as sent (not decompressed). */
  readonly body: Buffer
}

/**
 * One request with `node:http` (no automatic decompression, any header, any path): what a
 * client sees on the wire.
 */
export const rawCall = (
  baseUrl: string,
  path: string,
  options: { readonly method?: string; readonly headers?: Record<string, string> } = {}
) =>
  Effect.callback<RawReply, Error>((resume) => {
    const url = new URL(baseUrl)
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      path,
      method: options.method ?? "GET",
      headers: { connection: "close", ...options.headers },
      agent: false
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const headers: Record<string, string | undefined> = {}
        for (const [name, value] of Object.entries(response.headers)) headers[name] = Array.isArray(value) ? value.join(", ") : value
        resume(Effect.succeed({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) }))
      })
      response.on("error", (error) => resume(Effect.fail(error)))
    })
    request.on("error", (error) => resume(Effect.fail(error)))
    request.end()
  }).pipe(Effect.orDie)

/** A raw HTTP/1.1 exchange on a socket (for requests a client library would refuse to send), until the server closes it. */
export const rawSocket = (base: string, text: string) =>
  Effect.callback<string, Error>((resume) => {
    const url = new URL(base)
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text, "latin1"))
    let received = ""
    socket.on("data", (chunk) => (received += chunk.toString("latin1")))
    socket.on("end", () => resume(Effect.succeed(received)))
    socket.on("error", (error) => resume(Effect.fail(error)))
  }).pipe(Effect.orDie)

/** A raw call against the test server. */
export const raw = (path: string, options: { readonly method?: string; readonly headers?: Record<string, string> } = {}) =>
  Effect.flatMap(serverUrl, (base) => rawCall(base, path, options))
