import { assert, describe, it } from "@effect/vitest"
import { SAMPLE_FILE } from "@equides/ingest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { availableParallelism, tmpdir } from "node:os"
import { IpNetwork } from "effect/net"
import { DEFAULT_SETTINGS, serverConfig } from "./config.ts"

const read = (env: Record<string, string>) =>
  serverConfig.parse(ConfigProvider.fromEnvRecord(env))

describe("serverConfig", () => {
  it.effect("defaults: design 4", () =>
    Effect.gen(function*() {
      const config = yield* read({})
      assert.deepStrictEqual(config, { ...DEFAULT_SETTINGS, dataFile: SAMPLE_FILE })
      assert.include(config, {
        port: 8080,
        host: "0.0.0.0",
        rateLimitRate: 50,
        rateLimitBurst: 200,
        maxConcurrency: 8,
        exportConcurrency: 2,
        exportParquet: "request",
        exportDir: tmpdir(),
        requestTimeoutMs: 5000,
        rehearsalPasses: 20,
        rateLimitStore: "memory",
        logLevel: "Info",
        // Design 4: one query thread per core by default.
        workers: availableParallelism()
      })
      assert.deepStrictEqual(config.metrics, { host: "127.0.0.1", port: 9464 })
      assert.deepStrictEqual(config.trustedProxies, [])
    }))

  it.effect("reads every variable", () =>
    Effect.gen(function*() {
      const config = yield* read({
        PORT: "18080",
        HOST: "127.0.0.1",
        DATA_FILE: "/data/extract.jsonl.gz",
        METRICS_HOST: "0.0.0.0",
        METRICS_PORT: "0",
        TRUSTED_PROXIES: "10.0.0.1, 192.168.0.0/16,::1",
        RATE_LIMIT_RATE: "0",
        RATE_LIMIT_BURST: "10",
        RATE_LIMIT_STORE: "memory",
        MAX_CONCURRENCY: "2",
        EXPORT_CONCURRENCY: "4",
        EXPORT_DIR: "/var/cache/equides",
        EXPORT_PARQUET: "request",
        REQUEST_TIMEOUT_MS: "250",
        RESPONSE_CACHE_MB: "0",
        WORKERS: "0",
        REHEARSAL_PASSES: "0",
        LOG_LEVEL: "debug"
      })
      assert.include(config, {
        port: 18080,
        host: "127.0.0.1",
        dataFile: "/data/extract.jsonl.gz",
        rateLimitRate: 0,
        rateLimitBurst: 10,
        maxConcurrency: 2,
        exportConcurrency: 4,
        exportDir: "/var/cache/equides",
        exportParquet: "request",
        requestTimeoutMs: 250,
        responseCacheBytes: 0,
        workers: 0,
        rehearsalPasses: 0,
        logLevel: "Debug"
      })
      assert.deepStrictEqual(config.metrics, { host: "0.0.0.0", port: 0 })
      assert.deepStrictEqual(config.trustedProxies.map(IpNetwork.format), ["10.0.0.1/32", "192.168.0.0/16", "::1/128"])
    }))

  it.effect("METRICS_PORT=off turns the telemetry listener off", () =>
    Effect.gen(function*() {
      assert.isUndefined((yield* read({ METRICS_PORT: "off" })).metrics)
    }))

  it.effect("an invalid value fails, naming the variable", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<Record<string, string>> = [
        { PORT: "abc" },
        { PORT: "70000" },
        { PORT: "0" },
        { METRICS_PORT: "-1" },
        { METRICS_PORT: "http" },
        { TRUSTED_PROXIES: "10.0.0.1,proxy.local" },
        { TRUSTED_PROXIES: "10.0.0.0/33" },
        { RATE_LIMIT_RATE: "-5" },
        { RATE_LIMIT_RATE: "many" },
        { RATE_LIMIT_BURST: "0" },
        { RATE_LIMIT_BURST: "1.5" },
        { RATE_LIMIT_STORE: "disk" },
        { RATE_LIMIT_STORE: "redis://" },
        { RATE_LIMIT_STORE: "http://cache:6379" },
        { RATE_LIMIT_STORE: "redis://cache:6379/zero" },
        { RATE_LIMIT_STORE: "redis://cache:6379?db=1" },
        { RATE_LIMIT_LOCAL_UNITS: "0" },
        { RATE_LIMIT_STORE_TIMEOUT_MS: "0" },
        { MAX_CONCURRENCY: "0" },
        { EXPORT_CONCURRENCY: "0" },
        { EXPORT_PARQUET: "later" },
        { REQUEST_TIMEOUT_MS: "soon" },
        { RESPONSE_CACHE_MB: "-1" },
        { WORKERS: "all" },
        { WORKERS: "-2" },
        { REHEARSAL_PASSES: "-1" },
        { REHEARSAL_PASSES: "1001" },
        { REHEARSAL_PASSES: "many" },
        { LOG_LEVEL: "verbose" }
      ]
      for (const env of cases) {
        const error = yield* Effect.flip(read(env))
        assert.include(String(error), Object.keys(env)[0], JSON.stringify(env))
      }
    }))

  it.effect("RATE_LIMIT_STORE takes a Redis URL (with credentials, database, TLS); the prefix and local allowance are read", () =>
    Effect.gen(function*() {
      for (const url of ["redis://cache:6379", "redis://quota:s3cret@10.0.0.5:6380/2", "rediss://cache.example:6380"]) {
        assert.strictEqual((yield* read({ RATE_LIMIT_STORE: url })).rateLimitStore, url)
      }
      const config = yield* read({ RATE_LIMIT_PREFIX: "api:q:", RATE_LIMIT_LOCAL_UNITS: "5", RATE_LIMIT_STORE_TIMEOUT_MS: "200" })
      assert.include(config, { rateLimitPrefix: "api:q:", rateLimitLocalUnits: 5, rateLimitStoreTimeoutMs: 200 })
      assert.include(yield* read({}), { rateLimitPrefix: "equides:quota:", rateLimitLocalUnits: undefined, rateLimitStoreTimeoutMs: 50 })
    }))
})
