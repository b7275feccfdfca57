import { assert, describe, it } from "@effect/vitest"
import { SAMPLE_FILE } from "@equides/ingest"
import { ConfigProvider, Effect } from "effect"
import { serverConfig } from "./config.ts"

const read = (env: Record<string, string>) =>
  serverConfig.parse(ConfigProvider.fromEnvRecord(env))

describe("serverConfig", () => {
  it.effect("defaults: 0.0.0.0:8080, the embedded sample", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* read({}), { port: 8080, host: "0.0.0.0", dataFile: SAMPLE_FILE })
    }))

  it.effect("reads PORT, HOST and DATA_FILE", () =>
    Effect.gen(function*() {
      const config = yield* read({ PORT: "18080", HOST: "127.0.0.1", DATA_FILE: "/data/extract.jsonl.gz" })
      assert.deepStrictEqual(config, { port: 18080, host: "127.0.0.1", dataFile: "/data/extract.jsonl.gz" })
    }))

  it.effect("an invalid value fails, naming the variable", () =>
    Effect.gen(function*() {
      for (const env of [{ PORT: "abc" }, { PORT: "70000" }, { PORT: "0" }]) {
        const error = yield* Effect.flip(read(env))
        assert.include(String(error), "PORT")
      }
    }))
})
