/**
 * Test fixtures of the server: a small family of records (a sire with offspring over three
 * generations, a dangling dam, a record without birth year, trotters) and an id maker.
 * Not exported by the package.
 */
import {
  Api,
  Dataset,
  DEFAULT_REPARTITION_DIMENSION,
  repartition,
  resolveFilters,
  select,
  type SourceRecord,
  stats
} from "@equides/domain"
import { idN } from "@equides/domain/testing"
import { type Duration, Effect, Layer, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpRouter, HttpServer } from "effect/http"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import { Admission } from "./admission/Gatekeeper.ts"
import { makeApp } from "./App.ts"
import { ROUTER_CONFIG } from "./admission/routes.ts"
import { Executor } from "./execution/Executor.ts"
import { type ServerSettings, settingsLayer } from "./config.ts"
import { orRefuse } from "./handlers/query.ts"
import type { StatsHandlers } from "./handlers/stats.ts"
import { publicListener } from "./node/server.ts"
import { Telemetry } from "./telemetry.ts"


export const SIRE = idN(1)
export const DAM = idN(2)
export const SON = idN(3)
export const GELDING = idN(4)
export const DAUGHTER = idN(5)
export const GRANDSON = idN(6)
export const TROTTER = idN(7)
export const MARE = idN(8)
/** Referenced as a dam, absent from the records: a dangling link. */
export const ABSENT = idN(99)

export { SPEC_JSON as JSON_UTF8 } from "./testing/spec.ts"

/** Decodes strictly: a field the schema does not know fails too. */
export const shape = <S extends Schema.Top>(schema: S, value: unknown): S["Type"] =>
  Schema.decodeUnknownSync(schema as any)(value, { onExcessProperty: "error" }) as S["Type"]

/** One URI per route of the spec and of the consanguinity issue, plus the documentation page, each valid over FAMILY. */
export const EVERY_ROUTE: ReadonlyArray<string> = [
  "/",
  "/healthz",
  "/readyz",
  "/openapi.json",
  "/documentation",
  "/v1/meta",
  "/v1/equides",
  `/v1/equides/${SIRE}`,
  `/v1/equides/${SIRE}/pedigree`,
  `/v1/equides/${SIRE}/descendance`,
  `/v1/equides/${SON}/consanguinite`,
  `/v1/accouplements?pere=${SON}&mere=${DAUGHTER}`,
  "/v1/search?q=jap",
  "/v1/referentiels/races",
  "/v1/stats",
  "/v1/stats/repartition"
]

const isoIndex = { code: "ISO", valeur: "+150", coefficient: 0.9, annee: 1988, appreciation: "indice-excellent" }

export const FAMILY: ReadonlyArray<SourceRecord> = [
  {
    id: SIRE, nom: "JAPPELOUP DE LUZE", slug: "jappeloup-de-luze", race: "Selle Francais", sexe: "Male", robe: "Bai",
    annee_naissance: 1975, statut_reproducteur: "Etalon Actif",
    performances: [{ discipline: "SAUT D'OBSTACLES", texte: "ISO +150 (0.9)", indices: [isoIndex] }]
  },
  { id: DAM, nom: "VENISE", race: "Selle Francais", sexe: "Femelle", robe: "Alezan", annee_naissance: 1978, statut_reproducteur: "Pouliniere" },
  {
    id: SON, nom: "QUAPRICE BOIMARGOT", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2000,
    filiation_texte: "Par JAPPELOUP DE LUZE et VENISE",
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: DAM, nom: "VENISE", race: "SF" }
  },
  {
    id: GELDING, nom: "JAPPELOUP II", race: "Selle Francais", sexe: "Hongre", robe: "Gris", annee_naissance: 2002,
    pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" }, mere: { id: ABSENT, nom: "DISPARUE", race: "SF" }
  },
  { id: DAUGHTER, nom: "ÉCLAIR DU BOIS", race: "Selle Francais", sexe: "Femelle", pere: { id: SIRE, nom: "JAPPELOUP DE LUZE", race: "SF" } },
  {
    id: GRANDSON, nom: "ROCK AND ROLL", race: "Selle Francais", sexe: "Male", robe: "Bai", annee_naissance: 2010,
    pere: { id: SON, nom: "QUAPRICE BOIMARGOT", race: "SF" }
  },
  {
    id: TROTTER, nom: "BOLD EAGLE", race: "Trotteur Francais", sexe: "Male", robe: "Bai", annee_naissance: 2011,
    performances: [{ discipline: "TROT COURSE", texte: "BTR +59 (0.35)", indices: [{ code: "BTR", valeur: "+59", coefficient: 0.35, annee: 2024 }] }]
  },
  { id: MARE, nom: "ÉCLIPSE", race: "Trotteur Francais", sexe: "Femelle", robe: "Noir", annee_naissance: 2011 }
]

// -----------------------------------------------------------------------------
// A test server over a given Dataset, and raw HTTP calls against it.

/** The production Node server (`publicListener`, front door included unless told) on port 0, and a fetch `HttpClient` aimed at it. */
const nodeTestServer = (frontDoor: boolean) =>
  HttpServer.layerTestClient.pipe(
    Layer.provide(
      Layer.fresh(FetchHttpClient.layer).pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false })))
    ),
    Layer.provideMerge(publicListener({ port: 0 }, frontDoor))
  )

/** Settings of the test servers: the defaults, quota off and no metrics listener unless a test says otherwise. */
export const TEST_SETTINGS: Partial<ServerSettings> = { rateLimitRate: 0, metrics: undefined, workers: 0 }

export interface TestServerOptions {
  readonly settings?: Partial<ServerSettings>
  /** Handlers of the `stats` group to use instead of the real ones (slow or counting ones). */
  readonly stats?: typeof StatsHandlers
  /** Where queries run, instead of what `settings.workers` says (a pool of slow workers). */
  readonly executor?: typeof Executor.layer
  /** `false`: no front door, every request through the pipeline. */
  readonly frontDoor?: boolean
}

/**
 * The application on a real Node server (port 0), and an `HttpClient` aimed at it; `Settings` and
 * the `Telemetry` registry are available to the tests too.
 */
export const testServer = <E>(dataset: Layer.Layer<Dataset, E>, options: TestServerOptions = {}) =>
  HttpRouter.serve(makeApp(options.stats), { disableLogger: true, disableListenLog: true, routerConfig: ROUTER_CONFIG }).pipe(
    Layer.provideMerge(nodeTestServer(options.frontDoor ?? true)),
    Layer.provideMerge(Admission.layer),
    Layer.provide(options.executor ?? Executor.layer),
    Layer.provide(dataset),
    Layer.provideMerge(Layer.mergeAll(settingsLayer({ ...TEST_SETTINGS, ...options.settings }), Telemetry.layer))
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


// -----------------------------------------------------------------------------
// Instrumented handlers of the `stats` group (counting, optionally slow)

/** What the instrumented handlers saw: runs started and finished, in order (`global`, or `limite` of a repartition). */
export interface StatsProbe {
  started: number
  finished: number
  readonly order: Array<string>
}

export const makeProbe = (): StatsProbe => ({ started: 0, finished: 0, order: [] })

/**
 * The `stats` handlers, counting their runs in `probe` and, given a `delay`, sleeping that long
 * (on Effect's clock: `TestClock` in tests) before answering.
 */
export const instrumentedStats = (probe: StatsProbe, delay?: Duration.Input): typeof StatsHandlers =>
  HttpApiBuilder.group(
    Api,
    "stats",
    Effect.fnUntraced(function*(handlers) {
      const data = yield* Dataset
      const instrumented = <A, E>(label: string, answer: Effect.Effect<A, E>) =>
        Effect.suspend(() => {
          probe.started++
          probe.order.push(label)
          const answered = delay === undefined ? answer : Effect.delay(answer, delay)
          return Effect.map(answered, (value) => {
            probe.finished++
            return value
          })
        })
      return handlers.handleAll({
        global: () => instrumented("global", Effect.sync(() => stats(data))),
        repartition: ({ query }) =>
          instrumented(
            String(query.limite),
            Effect.flatMap(
              orRefuse(resolveFilters(data, query)),
              (filters) =>
                orRefuse(repartition(data, select(data, filters), query.dimension ?? DEFAULT_REPARTITION_DIMENSION, query.limite))
            )
          )
      })
    })
  )

/** Waits `ms` of real time (tests whose Effect clock is a `TestClock`). */
export const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls `condition` in real time until it holds (fails after `timeoutMs`). */
export const eventually = (condition: () => boolean, timeoutMs = 5000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    while (!condition()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error("condition not met in time"))
      yield* realSleep(5)
    }
  })

// -----------------------------------------------------------------------------
// A strict reader of the Prometheus text exposition format (0.0.4), for the telemetry tests

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Exposition {
  readonly types: ReadonlyMap<string, string>
  readonly samples: ReadonlyArray<Sample>
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"])

const parseValue = (text: string, line: number): number => {
  if (text === "NaN") return Number.NaN
  if (text === "+Inf") return Infinity
  if (text === "-Inf") return -Infinity
  if (!/^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`)
  return Number(text)
}

const parseLabels = (text: string, line: number): Record<string, string> => {
  const labels: Record<string, string> = {}
  let i = 0
  while (i < text.length) {
    const eq = text.indexOf("=", i)
    if (eq < 0) throw new Error(`line ${line}: label without value`)
    const name = text.slice(i, eq)
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name ${name}`)
    if (name in labels) throw new Error(`line ${line}: repeated label ${name}`)
    if (text[eq + 1] !== "\"") throw new Error(`line ${line}: label value not quoted`)
    let value = ""
    let j = eq + 2
    for (; j < text.length && text[j] !== "\""; j++) {
      if (text[j] === "\\") {
        const next = text[++j]
        if (next === "n") value += "\n"
        else if (next === "\\" || next === "\"") value += next
        else throw new Error(`line ${line}: bad escape`)
      } else if (text[j] === "\n") {
        throw new Error(`line ${line}: raw newline in label`)
      } else {
        value += text[j]
      }
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`)
    labels[name] = value
    i = j + 1
    if (i < text.length) {
      if (text[i] !== ",") throw new Error(`line ${line}: expected a comma between labels`)
      i++
    }
  }
  return labels
}

const familyOf = (name: string, types: ReadonlyMap<string, string>): string => {
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    const base = name.slice(0, -suffix.length)
    if (name.endsWith(suffix) && (types.get(base) === "histogram" || types.get(base) === "summary")) return base
  }
  return name
}

/** Parses `text`, throwing on anything the format does not allow; also checks histogram consistency. */
export const parsePrometheus = (text: string): Exposition => {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline")
  const types = new Map<string, string>()
  const helps = new Set<string>()
  const seenFamilies = new Set<string>()
  const samples: Array<Sample> = []
  const keys = new Set<string>()
  const lines = text.slice(0, -1).split("\n")
  lines.forEach((content, index) => {
    const line = index + 1
    if (content.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) (.*)$/.exec(content)
      if (match === null) throw new Error(`line ${line}: bad comment ${content}`)
      const [, kind, name, rest] = match
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: bad type ${rest}`)
        if (types.has(name)) throw new Error(`line ${line}: TYPE repeated for ${name}`)
        if (seenFamilies.has(name)) throw new Error(`line ${line}: TYPE after samples of ${name}`)
        types.set(name, rest)
      } else {
        if (helps.has(name)) throw new Error(`line ${line}: HELP repeated for ${name}`)
        helps.add(name)
      }
      return
    }
    const match = /^([^\s{]+)(?:\{(.*)\})? (\S+)(?: (-?[0-9]+))?$/.exec(content)
    if (match === null) throw new Error(`line ${line}: bad sample ${JSON.stringify(content)}`)
    const [, name, labelText, valueText] = match
    if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`)
    const labels = labelText === undefined ? {} : parseLabels(labelText, line)
    const family = familyOf(name, types)
    if (!types.has(family)) throw new Error(`line ${line}: no TYPE for ${family}`)
    seenFamilies.add(family)
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`
    if (keys.has(key)) throw new Error(`line ${line}: repeated sample ${key}`)
    keys.add(key)
    samples.push({ name, labels, value: parseValue(valueText, line) })
  })
  // Histograms: cumulative buckets, `+Inf` equal to `_count`.
  for (const [family, type] of types) {
    if (type !== "histogram") continue
    const series = new Map<string, Array<Sample>>()
    for (const sample of samples.filter((s) => s.name === `${family}_bucket`)) {
      const { le, ...rest } = sample.labels
      if (le === undefined) throw new Error(`${family}: bucket without le`)
      const key = JSON.stringify(Object.entries(rest).sort())
      series.set(key, [...(series.get(key) ?? []), sample])
    }
    for (const [key, buckets] of series) {
      const sorted = [...buckets].sort((a, b) => parseValue(a.labels.le, 0) - parseValue(b.labels.le, 0))
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i].value < sorted[i - 1].value) throw new Error(`${family}${key}: buckets not cumulative`)
      }
      const last = sorted[sorted.length - 1]
      if (last.labels.le !== "+Inf") throw new Error(`${family}${key}: no +Inf bucket`)
      const count = samples.find((s) => s.name === `${family}_count` && JSON.stringify(Object.entries(s.labels).sort()) === key)
      if (count === undefined || count.value !== last.value) throw new Error(`${family}${key}: _count differs from +Inf`)
    }
  }
  return { types, samples }
}

/** The value of the sample `name` with exactly these labels (undefined when absent). */
export const sampleValue = (exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined =>
  exposition.samples.find((sample) =>
    sample.name === name && Object.keys(sample.labels).length === Object.keys(labels).length &&
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )?.value
