/**
 * Server configuration, read from the environment through `Config` (design 4). An invalid value
 * stops the start with a message naming the variable. Every variable is documented in the README's
 * configuration table.
 */
import { SAMPLE_FILE } from "@equides/ingest"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { IpNetwork, NetAddress } from "effect/net"
import { availableParallelism, tmpdir } from "node:os"

export interface ServerSettings {
  readonly port: number
  readonly host: string
  /** The extract to serve: `DATA_FILE`, or the embedded sample when unset. */
  readonly dataFile: string
  /** The private telemetry listener; undefined when `METRICS_PORT=off`. */
  readonly metrics: { readonly host: string; readonly port: number } | undefined
  /** Peers whose `X-Forwarded-For` is honoured (`TRUSTED_PROXIES`: IPs or CIDR prefixes). */
  readonly trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>
  /** Quota refill, units per second per caller; 0 turns the quota off. */
  readonly rateLimitRate: number
  /** Quota burst: the bucket's capacity, in units. */
  readonly rateLimitBurst: number
  /** Where the buckets live: this process, or a Redis shared by replicas (`admission/redisQuota.ts`). */
  readonly rateLimitStore: QuotaStoreSetting
  /** Prefix of the Redis keys of the buckets. */
  readonly rateLimitPrefix: string
  /**
   * Units a replica may admit per caller before Redis has confirmed them (`RATE_LIMIT_LOCAL_UNITS`,
   * default a tenth of the burst, at least 10): the local allowance that keeps Redis off the
   * request path (`admission/redisQuota.ts`).
   */
  readonly rateLimitLocalUnits: number | undefined
  /** The longest a Redis call may take before the shared quota is taken for down (fail open). */
  readonly rateLimitStoreTimeoutMs: number
  readonly maxConcurrency: number
  /** Exports streaming at once (`EXPORT_CONCURRENCY`); beyond, a 503 with `Retry-After`. */
  readonly exportConcurrency: number
  /** Where the Parquet extract is written (`EXPORT_DIR`). */
  readonly exportDir: string
  /**
   * When it is written (`EXPORT_PARQUET`): on its first request (the default: the write, in a thread of its own,
   * takes a core for 35 s to 100 s and 550 to 700 MiB more while it runs at 4.45 M records, which a server that never
   * serves the file should not pay), or at start, once the listener is open.
   */
  readonly exportParquet: "request" | "start"
  /** Wait + run budget of a request. */
  readonly requestTimeoutMs: number
  /** Query worker threads (`WORKERS`); 0 runs queries in the server's thread. */
  readonly workers: number
  /** Bytes of responses kept by ETag (compressed or not); 0 turns the cache off. */
  readonly responseCacheBytes: number
  /**
   * Times the server sends itself each of its rehearsal's requests before it answers anyone
   * (`REHEARSAL_PASSES`, `node/rehearsal.ts`); 0: no rehearsal.
   */
  readonly rehearsalPasses: number
  readonly logLevel: LogLevel.LogLevel
}

/** The defaults of design 4 (the data file aside). */
export const DEFAULT_SETTINGS: Omit<ServerSettings, "dataFile"> = {
  port: 8080,
  host: "0.0.0.0",
  metrics: { host: "127.0.0.1", port: 9464 },
  trustedProxies: [],
  rateLimitRate: 50,
  rateLimitBurst: 200,
  rateLimitStore: "memory",
  rateLimitPrefix: "equides:quota:",
  rateLimitLocalUnits: undefined,
  rateLimitStoreTimeoutMs: 50,
  maxConcurrency: 8,
  exportConcurrency: 2,
  exportDir: tmpdir(),
  exportParquet: "request",
  requestTimeoutMs: 5000,
  workers: availableParallelism(),
  responseCacheBytes: 64 * 1024 * 1024,
  rehearsalPasses: 20,
  logLevel: "Info"
}

/**
 * A variable parsed by `parse` (a value, or the message saying what is expected): a refused value
 * fails with a `ConfigError` naming the variable, a missing one takes `fallback`.
 */
const variable = <A>(name: string, fallback: A, parse: (raw: string) => Result.Result<A, string>): Config.Config<A> =>
  Config.schema(
    Schema.String.check(Schema.makeFilter((raw: string) => {
      const parsed = parse(raw.trim())
      return Result.isSuccess(parsed) ? undefined : `${name} : ${parsed.failure} (reçu ${JSON.stringify(raw)})`
    })),
    name
  ).pipe(
    Config.map((raw) => Result.getOrThrow(parse(raw.trim()))),
    Config.withDefault(fallback)
  )

const parquetMoment = (raw: string): Result.Result<ServerSettings["exportParquet"], string> =>
  raw === "request" || raw === "start" ? Result.succeed(raw) : Result.fail("attendu request ou start")

const integer = (min: number, max: number) => (raw: string): Result.Result<number, string> =>
  /^[0-9]+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
    ? Result.succeed(Number(raw))
    : Result.fail(`entier attendu entre ${min} et ${max}`)

const nonNegative = (raw: string): Result.Result<number, string> =>
  /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Result.succeed(Number(raw)) : Result.fail("nombre positif ou nul attendu")

const metricsPort = (raw: string): Result.Result<number | undefined, string> =>
  raw.toLowerCase() === "off" ? Result.succeed(undefined) : integer(0, 65535)(raw)

/** IPs (`10.0.0.1`, `::1`) and CIDR prefixes (`10.0.0.0/8`), comma-separated. */
export const parseTrustedProxies = (raw: string): Result.Result<ReadonlyArray<IpNetwork.IpNetwork>, string> => {
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const item of raw.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    const network = item.includes("/")
      ? IpNetwork.fromString(item)
      : Result.flatMap(NetAddress.ipFromString(item), (address) => {
        const canonical = NetAddress.toCanonical(address)
        return IpNetwork.fromAddress(canonical, NetAddress.width(canonical))
      })
    if (Result.isFailure(network)) return Result.fail(`adresse IP ou préfixe CIDR attendu, pas ${JSON.stringify(item)}`)
    networks.push(network.success)
  }
  return Result.succeed(networks)
}

/** `memory`, or the URL of a Redis (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS). */
export type QuotaStoreSetting = "memory" | `redis://${string}` | `rediss://${string}`

export const parseQuotaStore = (raw: string): Result.Result<QuotaStoreSetting, string> => {
  if (raw === "memory") return Result.succeed("memory")
  const expected = "memory ou redis://[utilisateur:mot-de-passe@]hôte:port[/base] (rediss:// pour TLS) attendu"
  if (!URL.canParse(raw)) return Result.fail(expected)
  const url = new URL(raw)
  if ((url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "" || url.search !== "" || url.hash !== "") {
    return Result.fail(expected)
  }
  if (!/^\/?([0-9]{1,5})?$/.test(url.pathname)) return Result.fail(`numéro de base attendu après l'hôte, pas ${JSON.stringify(url.pathname)}`)
  return Result.succeed(raw as QuotaStoreSetting)
}

const localUnits = (raw: string): Result.Result<number | undefined, string> => integer(1, 1_000_000_000)(raw)

const LOG_LEVELS: ReadonlyArray<LogLevel.LogLevel> = ["All", "Fatal", "Error", "Warn", "Info", "Debug", "Trace", "None"]

/** Case-insensitive (`info`, `INFO`, `Info`); `warning` is read as `Warn`. */
const logLevel = (raw: string): Result.Result<LogLevel.LogLevel, string> => {
  const wanted = raw.toLowerCase() === "warning" ? "warn" : raw.toLowerCase()
  const level = LOG_LEVELS.find((candidate) => candidate.toLowerCase() === wanted)
  return level === undefined ? Result.fail(`une valeur parmi ${LOG_LEVELS.join(", ")} attendue`) : Result.succeed(level)
}

/** `LOG_LEVEL` alone: a start that fails reads it to tell how much to say. */
export const logLevelConfig: Config.Config<LogLevel.LogLevel> = variable("LOG_LEVEL", DEFAULT_SETTINGS.logLevel, logLevel)

export const serverConfig: Config.Config<ServerSettings> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(DEFAULT_SETTINGS.port)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault(DEFAULT_SETTINGS.host)),
  dataFile: Config.option(Config.NonEmptyString("DATA_FILE")),
  metricsHost: Config.NonEmptyString("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
  metricsPort: variable<number | undefined>("METRICS_PORT", 9464, metricsPort),
  trustedProxies: variable("TRUSTED_PROXIES", DEFAULT_SETTINGS.trustedProxies, parseTrustedProxies),
  rateLimitRate: variable("RATE_LIMIT_RATE", DEFAULT_SETTINGS.rateLimitRate, nonNegative),
  rateLimitBurst: variable("RATE_LIMIT_BURST", DEFAULT_SETTINGS.rateLimitBurst, integer(1, 1_000_000_000)),
  rateLimitStore: variable("RATE_LIMIT_STORE", DEFAULT_SETTINGS.rateLimitStore, parseQuotaStore),
  rateLimitPrefix: Config.String("RATE_LIMIT_PREFIX").pipe(Config.withDefault(DEFAULT_SETTINGS.rateLimitPrefix)),
  rateLimitLocalUnits: variable("RATE_LIMIT_LOCAL_UNITS", DEFAULT_SETTINGS.rateLimitLocalUnits, localUnits),
  rateLimitStoreTimeoutMs: variable("RATE_LIMIT_STORE_TIMEOUT_MS", DEFAULT_SETTINGS.rateLimitStoreTimeoutMs, integer(1, 60_000)),
  maxConcurrency: variable("MAX_CONCURRENCY", DEFAULT_SETTINGS.maxConcurrency, integer(1, 100_000)),
  exportConcurrency: variable("EXPORT_CONCURRENCY", DEFAULT_SETTINGS.exportConcurrency, integer(1, 1_000)),
  exportDir: Config.NonEmptyString("EXPORT_DIR").pipe(Config.withDefault(DEFAULT_SETTINGS.exportDir)),
  exportParquet: variable("EXPORT_PARQUET", DEFAULT_SETTINGS.exportParquet, parquetMoment),
  requestTimeoutMs: variable("REQUEST_TIMEOUT_MS", DEFAULT_SETTINGS.requestTimeoutMs, integer(1, 3_600_000)),
  workers: variable("WORKERS", DEFAULT_SETTINGS.workers, integer(0, 256)),
  responseCacheMb: variable("RESPONSE_CACHE_MB", DEFAULT_SETTINGS.responseCacheBytes / (1024 * 1024), integer(0, 1_000_000)),
  rehearsalPasses: variable("REHEARSAL_PASSES", DEFAULT_SETTINGS.rehearsalPasses, integer(0, 1_000)),
  logLevel: logLevelConfig
}).pipe(Config.map(({ dataFile, metricsHost, metricsPort, responseCacheMb, ...rest }): ServerSettings => ({
  ...rest,
  dataFile: Option.getOrElse(dataFile, () => SAMPLE_FILE),
  metrics: metricsPort === undefined ? undefined : { host: metricsHost, port: metricsPort },
  responseCacheBytes: responseCacheMb * 1024 * 1024
})))

/** The settings as a service: the request pipeline and the listeners read them (`server.ts` provides them). */
export class Settings extends Context.Service<Settings, ServerSettings>()("@equides/server/Settings") {}

/** The defaults with some values replaced (tests). */
export const settingsLayer = (overrides: Partial<ServerSettings> = {}): Layer.Layer<Settings> =>
  Layer.succeed(Settings, { ...DEFAULT_SETTINGS, dataFile: SAMPLE_FILE, ...overrides })
