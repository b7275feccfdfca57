/**
 * The weighted quota: bucket arithmetic, costs from the URI, the caller's address, and the whole
 * through the real pipeline on a `TestClock` (burst, refill, weights, `Retry-After` rounding, a
 * matching `If-None-Match` costing 1, the `RateLimit` headers).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Api, buildDataset, endpointsOf, fromRecords } from "@equides/domain"
import { idN } from "@equides/domain/testing"
import * as Effect from "effect/Effect"
import { TestClock } from "effect/testing"
import { parseTrustedProxies } from "./config.ts"
import { costOf, makeCallerKey, normalizeAddress, rateLimitPolicy, TokenBuckets, unitsOf } from "./admission/quota.ts"
import { bytesEstimates, executionCosts } from "./admission/routes.ts"
import { scanQuery } from "./admission/requestSize.ts"
import { FAMILY, SIRE } from "./testing/family.ts"
import { call, testServer, TRUSTED_LOOPBACK } from "./testing/server.ts"

describe("TokenBuckets", () => {
  it("starts full, takes the cost, refills at the rate up to the burst", () => {
    const buckets = new TokenBuckets(50, 200)
    const first = buckets.take("a", 1, 0)
    assert.deepStrictEqual(first, { allowed: true, remaining: 199, resetSeconds: 1, retryAfterSeconds: 0 })
    for (let i = 0; i < 199; i++) assert.isTrue(buckets.take("a", 1, 0).allowed)
    const refused = buckets.take("a", 1, 0)
    assert.deepStrictEqual(refused, { allowed: false, remaining: 0, resetSeconds: 4, retryAfterSeconds: 1 })
    // 20 ms give one unit back at 50/s.
    assert.isTrue(buckets.take("a", 1, 20).allowed)
    assert.isFalse(buckets.take("a", 1, 20).allowed)
    // Never beyond the burst.
    assert.strictEqual(buckets.peek("a", 1_000_000).remaining, 200)
  })

  it("a refusal takes nothing; Retry-After is the wait for the whole cost, rounded up, at least 1 s", () => {
    const buckets = new TokenBuckets(2, 10)
    assert.isTrue(buckets.take("a", 10, 0).allowed)
    assert.strictEqual(buckets.take("a", 5, 0).retryAfterSeconds, 3) // 5 units at 2/s: 2.5 s → 3
    assert.strictEqual(buckets.take("a", 5, 0).retryAfterSeconds, 3) // nothing was taken
    assert.strictEqual(buckets.take("a", 1, 400).retryAfterSeconds, 1) // 0.8 unit short: 0.1 s → 1
    assert.isTrue(buckets.take("a", 5, 2500).allowed)
  })

  it("a cost above the burst is capped at the burst", () => {
    const buckets = new TokenBuckets(1, 3)
    assert.isTrue(buckets.take("a", 5, 0).allowed)
    assert.strictEqual(buckets.take("a", 5, 0).retryAfterSeconds, 3)
  })

  it("forgets buckets that have refilled, and stays under its cap", () => {
    const buckets = new TokenBuckets(50, 200, 1000)
    for (let i = 0; i < 500; i++) buckets.take(`caller-${i}`, 10, 0)
    assert.strictEqual(buckets.size, 500)
    buckets.sweep(10_000)
    assert.strictEqual(buckets.size, 0)
    for (let i = 0; i < 5000; i++) buckets.take(`flood-${i}`, 10, 20_000)
    assert.isAtMost(buckets.size, 1000)
    // The sweep also runs by itself, once per refill period.
    buckets.take("late", 1, 60_000)
    assert.strictEqual(buckets.size, 1)
  })
})

describe("costOf", () => {
  const data = buildDataset(FAMILY)
  const cost = (route: string, url: string) => costOf(route, scanQuery(url), data)

  it("prices what the URI says will be sent: max(1, ceil(bytes / 16 KiB))", () => {
    assert.strictEqual(cost("/v1/equides", "/v1/equides"), 1) // 20 × 140 B
    assert.strictEqual(cost("/v1/equides", "/v1/equides?limite=100"), 1) // 14 000 B
    assert.strictEqual(cost("/v1/equides", "/v1/equides?vue=complet"), 1) // 16 000 B
    assert.strictEqual(cost("/v1/equides", "/v1/equides?vue=complet&limite=100"), 5) // 80 000 B
    assert.strictEqual(cost("/v1/equides/:id/pedigree", "/v1/equides/x/pedigree"), 1) // 31 nodes
    assert.strictEqual(cost("/v1/equides/:id/pedigree", "/v1/equides/x/pedigree?generations=8"), 4) // 511 × 108 B
    assert.strictEqual(cost("/v1/equides/:id/descendance", "/v1/equides/x/descendance?limite=100"), 1)
    assert.strictEqual(cost("/v1/search", "/v1/search?q=a&limite=100"), 1)
    assert.strictEqual(cost("/v1/referentiels/:dimension", "/v1/referentiels/races"), 5) // 80 000 B
    assert.strictEqual(cost("/v1/stats/repartition", "/v1/stats/repartition?limite=1000"), 3) // 41 000 B
    assert.strictEqual(cost("/v1/stats/repartition", "/v1/stats/repartition?dimension=annee_naissance&limite=1000"), 1)
    assert.strictEqual(cost("/v1/stats", "/v1/stats"), 1)
    assert.strictEqual(cost("/v1/equides/:id/descendance/statistiques", "/v1/equides/x/descendance/statistiques"), 2) // 20 000 B
    assert.strictEqual(cost("/v1/stats/reproducteurs", "/v1/stats/reproducteurs?code=ISO"), 1) // 20 × 200 B
    assert.strictEqual(cost("/v1/stats/reproducteurs", "/v1/stats/reproducteurs?code=ISO&limite=100"), 2) // 20 000 B
    assert.strictEqual(cost("/v1/accouplements/etalons", "/v1/accouplements/etalons?mere=x"), 1) // 20 × 230 B
    assert.strictEqual(cost("/v1/accouplements/etalons", "/v1/accouplements/etalons?mere=x&limite=100"), 2) // 23 000 B
    // An export pays 1 unit to start; its body is charged as it is produced (export/pacing.ts).
    assert.strictEqual(cost("/v1/export/equides", "/v1/export/equides?format=csv"), 1)
    assert.strictEqual(cost("/v1/export/equides.parquet", "/v1/export/equides.parquet"), 1)
  })

  it("reads each route's estimate from its definition: the routes whose answer grows, all of the Api", () => {
    const templates = new Set(endpointsOf(Api).map((endpoint) => endpoint.path))
    const estimated = [...bytesEstimates().keys()].sort()
    assert.deepStrictEqual(estimated, [
      "/v1/accouplements",
      "/v1/accouplements/etalons",
      "/v1/equides",
      "/v1/equides/:id/consanguinite",
      "/v1/equides/:id/descendance",
      "/v1/equides/:id/descendance/statistiques",
      "/v1/equides/:id/pedigree",
      "/v1/referentiels/:dimension",
      "/v1/search",
      "/v1/stats/genetique",
      "/v1/stats/repartition",
      "/v1/stats/reproducteurs"
    ])
    for (const route of estimated) assert.isTrue(templates.has(route), route)
  })

  it("prices a breed's genetics by the birth years it can list: 4 000 B + 300 B a year", () => {
    assert.strictEqual(cost("/v1/stats/genetique", "/v1/stats/genetique"), 1)
    // 126 birth years (1900–2025): 4 000 + 300 × 127 codes = 42 100 B.
    const years = buildDataset(Array.from({ length: 126 }, (_, k) => ({ ...FAMILY[0], id: idN(1000 + k), annee_naissance: 1900 + k })))
    assert.strictEqual(costOf("/v1/stats/genetique", scanQuery("/v1/stats/genetique?race=Arabe"), years), 3)
    assert.strictEqual(cost("/v1/equides/:id/genetique", "/v1/equides/x/genetique"), 1)
  })

  it("prices inbreeding by its most common ancestors possible: 700 B + 150 B × (2^g − 1)", () => {
    assert.strictEqual(cost("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite"), 3) // 38 950 B at 8
    assert.strictEqual(cost("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite?generations=4"), 1)
    assert.strictEqual(cost("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite?generations=12"), 38) // 614 950 B
    assert.strictEqual(cost("/v1/accouplements", "/v1/accouplements?pere=a&mere=b&generations=99"), 38)
  })

  it("reads values a route refuses at their bound (the 400 is cheap)", () => {
    assert.strictEqual(cost("/v1/equides", "/v1/equides?vue=complet&limite=5000"), 5)
    assert.strictEqual(cost("/v1/equides", "/v1/equides?limite=abc"), 1)
    assert.strictEqual(cost("/v1/equides/:id/pedigree", "/v1/equides/x/pedigree?generations=99"), 4)
  })
})

describe("unitsOf", () => {
  const data = buildDataset(FAMILY)
  const costs = executionCosts()
  const units = (route: string, url: string) => unitsOf(route, scanQuery(url), data, costs.get(route) ?? 0)

  it("declares an execution cost for each family whose cost grows with the data or the depth (ms of CPU at full scale)", () => {
    assert.deepStrictEqual(Object.fromEntries([...costs].sort(([a], [b]) => (a < b ? -1 : 1))), {
      "/explorer/accouplements": 20,
      "/explorer/accouplements/essai": 4,
      "/explorer/equides": 10,
      "/explorer/equides/:id": 0.5,
      "/explorer/equides/:id/descendance": 0.5,
      "/explorer/equides/:id/pedigree": 0.5,
      "/explorer/genetique": 40,
      "/explorer/reproducteurs": 2,
      "/explorer/stats": 4,
      "/v1/accouplements": 0.5,
      "/v1/accouplements/etalons": 5,
      "/v1/equides": 2,
      "/v1/equides/:id/consanguinite": 0.5,
      "/v1/equides/:id/descendance/statistiques": 1,
      "/v1/equides/:id/genetique": 0.5,
      "/v1/search": 1,
      "/v1/stats/genetique": 40,
      "/v1/stats/repartition": 4,
      "/v1/stats/reproducteurs": 1
    })
  })

  it("is the larger of the bytes rule and the route's execution cost, 1 unit per 0.5 ms", () => {
    assert.strictEqual(units("/explorer/equides", "/explorer/equides?race=x"), 20)
    assert.strictEqual(units("/explorer/stats", "/explorer/stats"), 8)
    assert.strictEqual(units("/explorer/equides/:id/pedigree", "/explorer/equides/x/pedigree?generations=8"), 1)
    assert.strictEqual(units("/v1/stats/repartition", "/v1/stats/repartition"), 8)
    assert.strictEqual(units("/v1/search", "/v1/search?q=a"), 2)
    assert.strictEqual(units("/v1/equides", "/v1/equides?race=x"), 4)
    assert.strictEqual(units("/v1/accouplements/etalons", "/v1/accouplements/etalons?mere=x&limite=100"), 10)
    // The bytes rule when it is the larger: 80 000 B, 614 950 B.
    assert.strictEqual(units("/v1/equides", "/v1/equides?race=x&vue=complet&limite=100"), 5)
    assert.strictEqual(units("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite?generations=12"), 38)
    assert.strictEqual(units("/v1/equides/:id/consanguinite", "/v1/equides/x/consanguinite?generations=4"), 1)
    // No declared cost: the bytes rule alone.
    assert.strictEqual(units("/v1/referentiels/:dimension", "/v1/referentiels/races"), 5)
    assert.strictEqual(units("/v1/equides/:id", "/v1/equides/x"), 1)
    assert.strictEqual(units("/v1/stats", "/v1/stats"), 1)
  })

  it("an unfiltered list (a window of a pre-sorted order) pays the bytes rule alone", () => {
    assert.strictEqual(units("/v1/equides", "/v1/equides"), 1)
    assert.strictEqual(units("/v1/equides", "/v1/equides?tri=-nom&offset=40&limite=100"), 1)
    assert.strictEqual(units("/v1/equides", "/v1/equides?tri=-nom&sexe=Male"), 4)
  })
})

describe("the caller", () => {
  const request = (remote: string, forwarded?: string) => [remote, forwarded] as const
  const trusted = (raw: string) => {
    const parsed = parseTrustedProxies(raw)
    if (parsed._tag === "Failure") throw new Error(parsed.failure)
    return parsed.success
  }

  it("is the socket address; X-Forwarded-For is ignored without trusted proxies", () => {
    const key = makeCallerKey([])
    assert.strictEqual(key(...request("203.0.113.9", "198.51.100.1")), "203.0.113.9")
    assert.strictEqual(key(...request("::ffff:203.0.113.9")), "203.0.113.9")
  })

  it("behind a trusted proxy: the right-most untrusted hop", () => {
    const key = makeCallerKey(trusted("10.0.0.0/8, 192.0.2.7"))
    assert.strictEqual(key(...request("10.0.0.1", "6.6.6.6, 198.51.100.7")), "198.51.100.7")
    assert.strictEqual(key(...request("::ffff:10.0.0.1", "6.6.6.6, 198.51.100.7, 192.0.2.7")), "198.51.100.7")
    // Every hop trusted: the left-most.
    assert.strictEqual(key(...request("10.0.0.1", "10.1.1.1, 10.2.2.2")), "10.1.1.1")
    // A hop that is not an address stops the walk: the peer itself.
    assert.strictEqual(key(...request("10.0.0.1", "198.51.100.7, unknown")), "10.0.0.1")
    // From an untrusted peer, the header is a claim: ignored.
    assert.strictEqual(key(...request("203.0.113.9", "198.51.100.7")), "203.0.113.9")
  })

  it("an IPv6 caller is its /64", () => {
    assert.strictEqual(normalizeAddress("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64")
    assert.strictEqual(normalizeAddress("2001:db8:1:2:ffff::1"), "2001:db8:1:2::/64")
  })
})

describe("through the pipeline, on a test clock", () => {
  const settings = { rateLimitRate: 50, rateLimitBurst: 10, trustedProxies: TRUSTED_LOOPBACK }
  layer(testServer(fromRecords(FAMILY), { settings }))("quota 50/s, burst 10", (it) => {
    /** Each test is its own caller, through the trusted loopback proxy. */
    const as = (caller: string) => (path: string, headers: Record<string, string> = {}) =>
      call(path, { headers: { "x-forwarded-for": caller, ...headers } })

    it.effect("every response states the policy and the caller's bucket", () =>
      Effect.gen(function*() {
        const reply = yield* as("198.51.100.1")("/v1/stats")
        assert.strictEqual(reply.headers["ratelimit-policy"], "\"default\";q=10;w=1")
        assert.strictEqual(reply.headers["ratelimit"], "\"default\";r=9;t=1")
        assert.strictEqual(rateLimitPolicy(50, 200), "\"default\";q=200;w=4")
      }))

    it.effect("burst: 10 ordinary requests pass, the 11th is a 429; the refill lets one more through", () =>
      Effect.gen(function*() {
        const get = as("198.51.100.2")
        for (let i = 0; i < 10; i++) assert.strictEqual((yield* get("/v1/stats")).status, 200, `request ${i + 1}`)
        const refused = yield* get("/v1/stats")
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(refused.headers["content-type"], "application/problem+json")
        assert.include(refused.json, { type: "/documentation#erreur-trop-de-requetes", title: "Trop de requêtes", status: 429 })
        assert.strictEqual(refused.headers["retry-after"], "1")
        assert.strictEqual(refused.headers["ratelimit"], "\"default\";r=0;t=1")
        assert.strictEqual(refused.headers["cache-control"], "no-store")
        assert.isUndefined(refused.headers["etag"])
        assert.strictEqual(refused.headers["access-control-allow-origin"], "*")
        assert.strictEqual(refused.headers["x-content-type-options"], "nosniff")
        // Another caller is not affected.
        assert.strictEqual((yield* as("198.51.100.3")("/v1/stats")).status, 200)

        yield* TestClock.adjust("20 millis") // one unit at 50/s
        assert.strictEqual((yield* get("/v1/stats")).status, 200)
        assert.strictEqual((yield* get("/v1/stats")).status, 429)
        yield* TestClock.adjust("1 second") // back to full
        assert.strictEqual((yield* get("/v1/stats")).headers["ratelimit"], "\"default\";r=9;t=1")
      }))

    it.effect("weights: a referential costs 5 units, a full page of complete records 5, a deep pedigree 4", () =>
      Effect.gen(function*() {
        const get = as("198.51.100.4")
        const first = yield* get("/v1/referentiels/races")
        assert.strictEqual(first.headers["ratelimit"], "\"default\";r=5;t=1")
        assert.strictEqual((yield* get("/v1/equides?vue=complet&limite=100")).headers["ratelimit"], "\"default\";r=0;t=1")
        const refused = yield* get(`/v1/equides/${SIRE}/pedigree?generations=8`)
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(refused.headers["retry-after"], "1") // 4 units at 50/s: 80 ms → 1 s
        yield* TestClock.adjust("80 millis")
        assert.strictEqual((yield* get(`/v1/equides/${SIRE}/pedigree?generations=8`)).status, 200)
      }))

    it.effect("by execution cost: an explorer list costs 20 units, a breakdown 8 (the burst of 10 holds one)", () =>
      Effect.gen(function*() {
        const get = as("198.51.100.6")
        const breakdown = yield* get("/v1/stats/repartition?dimension=sexe")
        assert.strictEqual(breakdown.status, 200)
        assert.strictEqual(breakdown.headers["ratelimit"], "\"default\";r=2;t=1")
        yield* TestClock.adjust("1 second")
        // 20 units, above the burst of 10: capped at the burst (else it could never pass).
        const page = yield* get("/explorer/equides?sexe=Male")
        assert.strictEqual(page.status, 200)
        assert.strictEqual(page.headers["ratelimit"], "\"default\";r=0;t=1")
        assert.strictEqual((yield* get("/explorer/stats")).status, 429)
      }))

    it.effect("a request whose If-None-Match matches costs 1 unit (and gets its 304)", () =>
      Effect.gen(function*() {
        const get = as("198.51.100.5")
        const page = yield* get("/v1/referentiels/races") // 5 units: 5 left
        yield* get("/v1/referentiels/robes") // 5 units: 0 left
        yield* TestClock.adjust("20 millis") // 1 unit
        assert.strictEqual((yield* get("/v1/referentiels/races")).status, 429, "a full answer costs 5")
        const revalidated = yield* get("/v1/referentiels/races", { "if-none-match": page.headers["etag"] })
        assert.strictEqual(revalidated.status, 304)
        assert.strictEqual(revalidated.headers["ratelimit"], "\"default\";r=0;t=1")
      }))
  })

  layer(testServer(fromRecords(FAMILY), { settings: { rateLimitRate: 2, rateLimitBurst: 10 } }))("quota 2/s, burst 10, no trusted proxy", (it) => {
    it.effect("Retry-After rounds the wait up to whole seconds; X-Forwarded-For from an untrusted peer is ignored", () =>
      Effect.gen(function*() {
        const get = (path: string, forwarded: string) => call(path, { headers: { "x-forwarded-for": forwarded } })
        assert.strictEqual((yield* get("/v1/referentiels/races", "198.51.100.1")).status, 200)
        // Another claimed address, same socket: same bucket.
        assert.strictEqual((yield* get("/v1/referentiels/races", "198.51.100.2")).status, 200)
        const refused = yield* get("/v1/referentiels/races", "198.51.100.3")
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(refused.headers["retry-after"], "3") // 5 units at 2/s: 2.5 s → 3
        assert.strictEqual(refused.headers["ratelimit-policy"], "\"default\";q=10;w=5")
        assert.strictEqual(refused.headers["ratelimit"], "\"default\";r=0;t=5")
        yield* TestClock.adjust("2400 millis")
        assert.strictEqual((yield* get("/v1/referentiels/races", "x")).status, 429)
        yield* TestClock.adjust("100 millis")
        assert.strictEqual((yield* get("/v1/referentiels/races", "x")).status, 200)
      }))
  })

  layer(testServer(fromRecords(FAMILY), { settings: { rateLimitRate: 0 } }))("RATE_LIMIT_RATE=0", (it) => {
    it.effect("turns the quota off: no limit, no RateLimit headers", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 300; i++) {
          const reply = yield* call("/v1/referentiels/races")
          assert.strictEqual(reply.status, 200)
          assert.isUndefined(reply.headers["ratelimit"])
        }
      }))
  })
})
