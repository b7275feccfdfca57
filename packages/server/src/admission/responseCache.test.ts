/**
 * The response cache: least-recently-used eviction against a naive model, the budget counting the
 * buffers an entry keeps alive, and, through the real server, the process's buffers bounded by the
 * budget whatever number of distinct representations pass through it.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { Agent, request } from "node:http"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Admission } from "./Gatekeeper.ts"
import { FAMILY } from "../testing/family.ts"
import { serverUrl, testServer } from "../testing/server.ts"
import { ENTRY_OVERHEAD, exactBody, ResponseCache } from "./responseCache.ts"

const bodyOf = (length: number) => new Uint8Array(length)

describe("ResponseCache", () => {
  it("evicts the least recently used first, as a naive list does", () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant("set" as const), key: fc.integer({ min: 0, max: 30 }), length: fc.integer({ min: 0, max: 600 }) })
    )
    fc.assert(fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
      const budget = 16 * (600 + ENTRY_OVERHEAD)
      const cache = new ResponseCache<number>(budget)
      // The model: keys from least to most recently used, with their counted bytes.
      let model: Array<{ key: string; bytes: number }> = []
      for (const operation of operations) {
        const key = String(operation.key)
        const found = model.findIndex((entry) => entry.key === key)
        if (operation.kind === "get") {
          assert.strictEqual(cache.get(key, key, "", ""), found < 0 ? undefined : operation.key)
          if (found >= 0) model = [...model.filter((entry) => entry.key !== key), model[found]]
        } else {
          cache.set(key, key, "", "", operation.key, bodyOf(operation.length))
          if (found < 0) {
            model.push({ key, bytes: operation.length + ENTRY_OVERHEAD })
            while (model.reduce((sum, entry) => sum + entry.bytes, 0) > budget) model.shift()
          }
        }
        assert.strictEqual(cache.size, model.length)
        assert.strictEqual(cache.bytes, model.reduce((sum, entry) => sum + entry.bytes, 0))
      }
      for (const entry of model) assert.strictEqual(cache.get(entry.key, entry.key, "", ""), Number(entry.key))
    }))
  })

  it("counts the buffer a body keeps alive, and keeps nothing above a sixteenth of the budget", () => {
    const cache = new ResponseCache<string>(16 * (20_000 + ENTRY_OVERHEAD))
    const view = new Uint8Array(new ArrayBuffer(20_000), 100, 800)
    cache.set("view", "/view", "", "", "view", view)
    assert.strictEqual(cache.bytes, 20_000 + ENTRY_OVERHEAD)
    const exact = exactBody(view)
    assert.strictEqual(exact.buffer.byteLength, 800)
    assert.deepStrictEqual(exact, view)
    const owned = bodyOf(50)
    assert.strictEqual(exactBody(owned), owned)
    cache.set("too big", "/too-big", "", "", "too big", bodyOf(20_001))
    assert.strictEqual(cache.get("too big", "/too-big", "", ""), undefined)
    assert.strictEqual(cache.size, 1)
  })

  it("is off with a budget of 0", () => {
    const cache = new ResponseCache<string>(0)
    cache.set("a", "/a", "", "", "a", bodyOf(1))
    assert.isFalse(cache.enabled)
    assert.strictEqual(cache.get("a", "/a", "", ""), undefined)
    assert.isFalse(cache.wants("a"))
    assert.isFalse(cache.wants("a"))
  })

  it("answers a hit only for the URI, coding and variant the response was kept for (a 64-bit ETag can collide)", () => {
    const cache = new ResponseCache<string>(1024 * 1024)
    const etag = "\"0123456789abcdef\""
    cache.set(etag, "/v1/equides?race=arabe", "gzip", "", "arabe gzip", bodyOf(10))
    assert.strictEqual(cache.get(etag, "/v1/equides?race=arabe", "gzip", ""), "arabe gzip")
    // Another URI, coding or variant whose ETag happens to be the same: not this response.
    assert.isUndefined(cache.get(etag, "/v1/equides?race=barbe", "gzip", ""))
    assert.isUndefined(cache.get(etag, "/v1/equides?race=arabe", "br", ""))
    assert.isUndefined(cache.get(etag, "/v1/equides?race=arabe", "gzip", "html"))
    assert.strictEqual(cache.hits, 1)
    // The colliding representation is not kept over the first one.
    cache.set(etag, "/v1/equides?race=barbe", "gzip", "", "barbe gzip", bodyOf(10))
    assert.strictEqual(cache.get(etag, "/v1/equides?race=arabe", "gzip", ""), "arabe gzip")
    assert.isUndefined(cache.get(etag, "/v1/equides?race=barbe", "gzip", ""))
  })

  it("wants a representation on its second offer, and not while it holds one", () => {
    const cache = new ResponseCache<string>(1024 * 1024)
    assert.isFalse(cache.wants("\"a\""))
    assert.isFalse(cache.wants("\"b\""))
    assert.isTrue(cache.wants("\"a\""))
    cache.set("\"a\"", "/a", "", "", "a", bodyOf(1))
    assert.isFalse(cache.wants("\"a\""))
    assert.isTrue(cache.wants("\"b\""))
  })
})

// -----------------------------------------------------------------------------
// Through the server: distinct small compressed representations, many times the budget.

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const BUDGET = 1024 * 1024
/** Distinct URIs asked in each of the four codings. */
const URIS = 1_500
const CODINGS = ["br;q=1, identity;q=0", "gzip;q=1, identity;q=0", "deflate;q=1, identity;q=0", "identity"] as const

/** `count` GETs over 8 keep-alive connections, each answered `status`. */
const fill = (base: string, count: number, uri: (i: number) => readonly [string, string], status = 200) =>
  Effect.promise(() => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const url = new URL(base)
    let next = 0
    const one = (): Promise<void> => {
      if (next >= count) return Promise.resolve()
      const [path, coding] = uri(next++)
      return new Promise<void>((resolve, reject) => {
        request({ host: url.hostname, port: url.port, path, agent, headers: { "accept-encoding": coding } }, (response) => {
          response.resume()
          response.on("end", () => (response.statusCode === status ? resolve() : reject(new Error(`${path}: ${response.statusCode}`))))
        }).on("error", reject).end()
      }).then(one)
    }
    return Promise.all(Array.from({ length: 8 }, one)).finally(() => agent.destroy())
  })

const settle = () =>
  Effect.promise(async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve))
      gc()
    }
    return process.memoryUsage().arrayBuffers
  })

layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: BUDGET } }), { excludeTestServices: true })("the response cache in the server", (it) => {
  it.effect(`${URIS} distinct URIs in every coding: the process's buffers grow by the budget at most`, () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      const { cache } = yield* Admission
      const uri = (i: number) =>
        [`/v1/equides/${FAMILY[0]!.id}/descendance?offset=${Math.floor(i / CODINGS.length)}`, CODINGS[i % CODINGS.length]!] as const
      // Warm-up, on answers the cache does not keep (a 404 problem): whatever the server allocates
      // once (pools, code) is not the cache's.
      yield* fill(base, 400, (i) => [`/v1/equides/AAAAAAAAAAAAAAAAAAAAAA/descendance?offset=${i}`, CODINGS[i % CODINGS.length]!], 404)
      assert.strictEqual(cache.size, 0)
      const before = yield* settle()
      // Each representation asked for twice: kept from its second answer on.
      yield* fill(base, 2 * URIS * CODINGS.length, (i) => uri(i >> 1))
      const after = yield* settle()
      assert.isAtMost(cache.bytes, BUDGET)
      assert.isAbove(cache.size, 100)
      // The entries kept are the most recent ones, answered again from memory.
      const hits = cache.hits
      yield* fill(base, 8, (i) => uri(URIS * CODINGS.length - 1 - i))
      assert.strictEqual(cache.hits, hits + 8)
      assert.isAtMost(after - before, BUDGET + 1024 * 1024, `arrayBuffers grew by ${after - before} bytes`)
    }), 60_000)
})

layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: 8 * BUDGET } }))("the response cache under a crawler", (it) => {
  it.effect("a crawler asking for each representation once fills nothing, and a second request is kept", () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      const { cache } = yield* Admission
      const uri = (i: number) => [`/v1/equides/${FAMILY[0]!.id}/descendance?limite=${1 + (i % 100)}&offset=${Math.floor(i / 100)}`, "identity"] as const
      yield* fill(base, 1_000, uri)
      assert.strictEqual(cache.size, 0)
      const hits = cache.hits
      yield* fill(base, 2, () => uri(5_000))
      assert.strictEqual(cache.size, 1)
      assert.strictEqual(cache.hits, hits)
      yield* fill(base, 1, () => uri(5_000))
      assert.strictEqual(cache.hits, hits + 1)
    }))
})
