/**
 * Validators and compression through the real pipeline, on the wire (`node:http`, no automatic
 * decompression): strong ETags computed before execution, 304 without running the handler, bodies
 * compressed by q-value and identical once decompressed, HEAD consistent with GET.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib"
import { ifNoneMatchMatches, isWildcard, makeEtagger } from "./admission/conditional.ts"
import { MIN_COMPRESSED_BYTES, negotiateUncached } from "./admission/coding.ts"
import { Admission } from "./admission/Gatekeeper.ts"
import { SPEC_CACHE_CONTROL as CACHE_POLICY } from "./testing/spec.ts"
import { FAMILY, SIRE } from "./testing/family.ts"
import { instrumentedStats, makeProbe } from "./testing/instrumented.ts"
import { raw, type RawReply, testServer } from "./testing/server.ts"

const STRONG = /^"[0-9a-f]{16}"$/

const decode = (reply: RawReply): string => {
  switch (reply.headers["content-encoding"]) {
    case "br":
      return brotliDecompressSync(reply.body).toString("utf8")
    case "gzip":
      return gunzipSync(reply.body).toString("utf8")
    case "deflate":
      return inflateSync(reply.body).toString("utf8")
    case undefined:
      return reply.body.toString("utf8")
    default:
      throw new Error(`unexpected coding ${reply.headers["content-encoding"]}`)
  }
}

describe("ETag and If-None-Match, unit", () => {
  const release = { version: "1.1.1", build: "b".repeat(64) }
  const etag = makeEtagger("f".repeat(64), "2026-01-01T00:00:00.000Z", release)

  it("is strong, stable, and changes with the URI, the coding, the variant, the dataset and the release", () => {
    const base = etag("/v1/equides?race=arabe", "identity", "")
    assert.match(base, STRONG)
    assert.strictEqual(etag("/v1/equides?race=arabe", "identity", ""), base)
    const others = [
      etag("/v1/equides?race=arabe&limite=21", "identity", ""),
      etag("/v1/equides?race=Arabe", "identity", ""),
      etag("/v1/equides?race=arabe", "gzip", ""),
      etag("/v1/equides?race=arabe", "br", ""),
      etag("/v1/equides?race=arabe", "identity", "html"),
      makeEtagger("e".repeat(64), "2026-01-01T00:00:00.000Z", release)("/v1/equides?race=arabe", "identity", ""),
      makeEtagger("f".repeat(64), "2026-01-02T00:00:00.000Z", release)("/v1/equides?race=arabe", "identity", ""),
      makeEtagger("f".repeat(64), "2026-01-01T00:00:00.000Z", { ...release, version: "1.1.2" })("/v1/equides?race=arabe", "identity", ""),
      makeEtagger("f".repeat(64), "2026-01-01T00:00:00.000Z", { ...release, build: `c${"b".repeat(63)}` })("/v1/equides?race=arabe", "identity", "")
    ]
    assert.strictEqual(new Set([base, ...others]).size, others.length + 1)
  })

  it("writes 16 lowercase hexadecimal digits, leading zeros included", () => {
    // A lane below 0x10000000 (one URI in 16) must keep its leading zeros.
    const tags = Array.from({ length: 2000 }, (_, i) => etag(`/v1/equides/${i}`, "identity", ""))
    for (const tag of tags) assert.match(tag, STRONG)
    assert.isTrue(tags.some((tag) => tag.startsWith("\"0") || tag.charAt(9) === "0"))
  })

  it("is the hash of the seed, the URI, NUL, the coding, NUL and the variant, written as its two lanes' 16 hexadecimal digits", () => {
    // The naive model: the text hashed as one string, the digits by `toString(16)`.
    const naive = (seed: string, uri: string, coding: string, variant: string): string => {
      let h1 = 0xdeadbeef
      let h2 = 0x41c6ce57
      const text = `${seed}${uri}\u0000${coding}\u0000${variant}`
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i)
        h1 = Math.imul(h1 ^ c, 2654435761)
        h2 = Math.imul(h2 ^ c, 1597334677)
      }
      h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
      h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
      const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0")
      return `"${hex(h2)}${hex(h1)}"`
    }
    const seed = `${"f".repeat(64)}\u00002026-01-01T00:00:00.000Z\u0000${release.version}\u0000${release.build}\u0000`
    fc.assert(fc.property(fc.string({ unit: "binary" }), fc.constantFrom("identity", "gzip", "br", "deflate"), fc.constantFrom("", "html", "quota-degraded"), (uri, coding, variant) => {
      assert.strictEqual(etag(uri, coding, variant), naive(seed, uri, coding, variant))
    }))
  })

  it("If-None-Match: lists, weak comparison, * apart", () => {
    const tag = "\"0123456789abcdef\""
    assert.isTrue(ifNoneMatchMatches(tag, tag))
    assert.isTrue(ifNoneMatchMatches(`W/${tag}`, tag))
    assert.isTrue(ifNoneMatchMatches(`"aaaa", W/"bbbb",${tag}`, tag))
    // `*` is not an entity tag: it matches a current representation, which the answer tells.
    assert.isFalse(ifNoneMatchMatches("*", tag))
    assert.isTrue(isWildcard("*"))
    assert.isTrue(isWildcard(" * "))
    assert.isFalse(isWildcard(`*, ${tag}`))
    assert.isFalse(isWildcard(tag))
    assert.isFalse(ifNoneMatchMatches("\"0123456789abcdee\"", tag))
    assert.isFalse(ifNoneMatchMatches("0123456789abcdef", tag), "unquoted")
    assert.isFalse(ifNoneMatchMatches("\"0123456789abcdef", tag), "unterminated")
    assert.isFalse(ifNoneMatchMatches(`${tag}x`, tag), "a tag followed by other text")
    assert.isFalse(ifNoneMatchMatches(`"aaaa", ${tag}W/"bbbb"`, tag), "two tags without a comma")
    assert.isFalse(ifNoneMatchMatches(`"aaaa"${tag}`, tag), "two tags without a comma, the second matching")
    assert.isTrue(ifNoneMatchMatches(`"aaaa",\t${tag}\t, "bbbb"`, tag), "tabs around a member")
    assert.isFalse(ifNoneMatchMatches("", tag))
  })

  // RFC 9110: If-None-Match = "*" / #entity-tag; entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, where
  // etagc is any visible character but DQUOTE (a comma included); list members are separated by
  // commas with optional spaces and tabs, and may be empty.
  const TAG = "\"0123456789abcdef\""
  const opaque = fc.oneof(fc.constant("0123456789abcdef"), fc.constant("0123456789abcdee"), fc.stringMatching(/^[!#-~]{0,8}$/))
  const space = fc.stringMatching(/^[ \t]{0,2}$/)
  const member = fc.record({ weak: fc.boolean(), opaque, before: space, after: space })
  const written = (m: { weak: boolean; opaque: string; before: string; after: string }) =>
    `${m.before}${m.weak ? "W/" : ""}"${m.opaque}"${m.after}`

  it("a well-formed list matches exactly when one of its tags is the ETag's, weak or strong", () => {
    fc.assert(fc.property(fc.array(member, { minLength: 1, maxLength: 5 }), fc.array(fc.boolean(), { maxLength: 5 }), (members, empties) => {
      // Empty members (`, ,`) between some of the tags.
      const header = members.map((m, i) => written(m) + (empties[i] === true ? ", " : "")).join(",")
      assert.strictEqual(ifNoneMatchMatches(header, TAG), members.some((m) => `"${m.opaque}"` === TAG), header)
    }))
  })

  it("a tag followed by anything but a comma is malformed and matches nothing from there on", () => {
    fc.assert(fc.property(fc.array(member, { maxLength: 3 }), fc.stringMatching(/^[!#-+\--~]$/), fc.array(member, { maxLength: 3 }), (before, junk, after) => {
      const header = [...before.map(written), `W/${TAG}${junk}`, ...after.map(written)].join(",")
      assert.strictEqual(ifNoneMatchMatches(header, TAG), before.some((m) => `"${m.opaque}"` === TAG), header)
    }))
  })
})

describe("Accept-Encoding negotiation", () => {
  const coding = (header: string | undefined) => negotiateUncached(header).coding

  it("takes the highest q, ties to br, gzip, deflate, identity", () => {
    assert.strictEqual(coding(undefined), "identity")
    assert.strictEqual(coding(""), "identity")
    assert.strictEqual(coding("gzip, deflate, br, zstd"), "br")
    assert.strictEqual(coding("gzip;q=1, br;q=0.5"), "gzip")
    assert.strictEqual(coding("deflate;q=0.9, gzip;q=0.8"), "deflate")
    assert.strictEqual(coding("br;q=0, *"), "gzip")
    assert.strictEqual(coding("x-gzip"), "gzip")
    assert.strictEqual(coding("identity;q=1, gzip;q=0.5"), "identity")
    assert.strictEqual(coding("compress, zstd"), "identity")
    assert.strictEqual(coding("GZIP ; Q=0.5"), "gzip")
  })

  it("identity refused: a coding if one is acceptable, else identity anyway", () => {
    assert.deepStrictEqual(negotiateUncached("gzip;q=0.1, identity;q=0"), { coding: "gzip", identityRefused: true })
    assert.deepStrictEqual(negotiateUncached("*;q=0, br"), { coding: "br", identityRefused: true })
    assert.deepStrictEqual(negotiateUncached("*;q=0"), { coding: "identity", identityRefused: false })
    assert.deepStrictEqual(negotiateUncached("identity;q=0, zstd"), { coding: "identity", identityRefused: false })
  })
})

describe("through the pipeline", () => {
  const probe = makeProbe()
  // The response cache is off here: every 200 below is an execution.
  layer(testServer(fromRecords(FAMILY), { stats: instrumentedStats(probe), settings: { responseCacheBytes: 0 } }))("no cache", (it) => {
    it.effect("every response carries a strong ETag, the caching policy and Vary", () =>
      Effect.gen(function*() {
        for (const path of ["/", "/healthz", "/v1/meta", "/v1/equides", `/v1/equides/${SIRE}`, "/v1/stats", "/documentation", "/nulle-part"]) {
          const reply = yield* raw(path)
          assert.match(reply.headers["etag"] ?? "", STRONG, path)
          assert.strictEqual(reply.headers["cache-control"], CACHE_POLICY, path)
          assert.include(reply.headers["vary"] ?? "", "Accept-Encoding", path)
        }
        assert.strictEqual((yield* raw("/")).headers["vary"], "Accept, Accept-Encoding")
      }))

    it.effect("the ETag is stable, and changes with one parameter, the coding, and the media type of GET /", () =>
      Effect.gen(function*() {
        const etagOf = (path: string, headers: Record<string, string> = {}) => Effect.map(raw(path, { headers }), (r) => r.headers["etag"])
        const base = yield* etagOf("/v1/equides?limite=5")
        assert.strictEqual(yield* etagOf("/v1/equides?limite=5"), base)
        const variants = [
          yield* etagOf("/v1/equides?limite=6"),
          yield* etagOf("/v1/equides?limite=5", { "accept-encoding": "gzip" }),
          yield* etagOf("/v1/equides?limite=5", { "accept-encoding": "br" })
        ]
        assert.strictEqual(new Set([base, ...variants]).size, 4)
        const json = yield* etagOf("/", { accept: "application/json" })
        const html = yield* etagOf("/", { accept: "text/html" })
        assert.notStrictEqual(json, html)
        assert.strictEqual(yield* etagOf("/"), json)
      }))

    it.effect("If-None-Match answers 304 without running the handler, keeping the validators and headers", () =>
      Effect.gen(function*() {
        const first = yield* raw("/v1/stats")
        assert.strictEqual(first.status, 200)
        const runs = probe.started
        const etag = first.headers["etag"]!
        for (const header of [etag, `W/${etag}`, `"nope", ${etag}`]) {
          const reply = yield* raw("/v1/stats", { headers: { "if-none-match": header } })
          assert.strictEqual(reply.status, 304, header)
          assert.strictEqual(reply.body.length, 0)
          assert.strictEqual(reply.headers["etag"], etag)
          assert.strictEqual(reply.headers["cache-control"], CACHE_POLICY)
          assert.strictEqual(reply.headers["vary"], "Accept-Encoding")
          assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
          assert.strictEqual(reply.headers["access-control-allow-origin"], "*")
          assert.isUndefined(reply.headers["content-type"])
          assert.isUndefined(reply.headers["content-encoding"])
        }
        assert.strictEqual(probe.started, runs, "the handler did not run")
        // Another validator, or the same one for another coding: a full answer.
        assert.strictEqual((yield* raw("/v1/stats", { headers: { "if-none-match": "\"0000000000000000\"" } })).status, 200)
        assert.strictEqual((yield* raw("/v1/stats", { headers: { "if-none-match": etag, "accept-encoding": "gzip" } })).status, 200)
        assert.strictEqual(probe.started, runs + 2)
      }))

    it.effect("compressed bodies (br, gzip, deflate) decompress to the identity body", () =>
      Effect.gen(function*() {
        for (const path of ["/openapi.json", "/v1/equides?vue=complet", "/v1/referentiels/races", "/documentation", "/v1/stats"]) {
          const plain = yield* raw(path)
          assert.isUndefined(plain.headers["content-encoding"])
          for (const coding of ["br", "gzip", "deflate"]) {
            const packed = yield* raw(path, { headers: { "accept-encoding": coding } })
            if (plain.body.length < 1024) {
              assert.isUndefined(packed.headers["content-encoding"], `${path} is under 1 KiB`)
            } else {
              assert.strictEqual(packed.headers["content-encoding"], coding, path)
              assert.isBelow(packed.body.length, plain.body.length)
              assert.strictEqual(packed.headers["content-length"], String(packed.body.length))
            }
            assert.strictEqual(decode(packed), plain.body.toString("utf8"), `${path} ${coding}`)
            assert.strictEqual(packed.headers["content-type"], plain.headers["content-type"])
          }
        }
      }))

    it.effect("small bodies stay as they are, unless identity is refused", () =>
      Effect.gen(function*() {
        const small = yield* raw("/healthz", { headers: { "accept-encoding": "gzip" } })
        assert.isUndefined(small.headers["content-encoding"])
        const forced = yield* raw("/healthz", { headers: { "accept-encoding": "gzip, identity;q=0" } })
        assert.strictEqual(forced.headers["content-encoding"], "gzip")
        assert.deepStrictEqual(JSON.parse(decode(forced)), JSON.parse(small.body.toString("utf8")))
        // Another body, another validator.
        assert.notStrictEqual(forced.headers["etag"], small.headers["etag"])
        const nothingAcceptable = yield* raw("/v1/equides?vue=complet", { headers: { "accept-encoding": "*;q=0" } })
        assert.strictEqual(nothingAcceptable.status, 200)
        assert.isUndefined(nothingAcceptable.headers["content-encoding"])
      }))

    it.effect("HEAD answers the headers of GET (Content-Length and Content-Encoding included), no body", () =>
      Effect.gen(function*() {
        for (const headers of [{}, { "accept-encoding": "br" }, { "accept-encoding": "gzip" }]) {
          for (const path of ["/v1/equides?vue=complet", "/v1/stats", "/nulle-part"]) {
            const get = yield* raw(path, { headers })
            const head = yield* raw(path, { method: "HEAD", headers })
            assert.strictEqual(head.body.length, 0)
            assert.strictEqual(head.status, get.status)
            for (const name of ["etag", "content-length", "content-encoding", "content-type", "cache-control", "vary"]) {
              assert.strictEqual(head.headers[name], get.headers[name], `${path} ${name}`)
            }
          }
        }
      }))

    it.effect("If-None-Match: * is a 304 only where a representation exists (RFC 9110 13.1.2); an unknown id or path gets its 404", () =>
      Effect.gen(function*() {
        const star = { "if-none-match": "*" }
        for (const path of [`/v1/equides/${SIRE}`, `/v1/equides/${SIRE}/pedigree`, "/v1/stats", "/v1/equides?limite=2"]) {
          const reply = yield* raw(path, { headers: star })
          assert.strictEqual(reply.status, 304, path)
          assert.strictEqual(reply.body.length, 0, path)
          assert.strictEqual(reply.headers["etag"], (yield* raw(path)).headers["etag"], path)
          assert.strictEqual((yield* raw(path, { method: "HEAD", headers: star })).status, 304, `HEAD ${path}`)
        }
        const unknownId = `/v1/equides/${"Z".repeat(22)}`
        for (const path of [unknownId, `${unknownId}/pedigree`, `${unknownId}/descendance`, "/nulle-part", "/explorer/equides/" + "Z".repeat(22)]) {
          const reply = yield* raw(path, { headers: star })
          const plain = yield* raw(path)
          assert.strictEqual(reply.status, 404, path)
          assert.strictEqual(reply.headers["content-type"], plain.headers["content-type"], path)
          assert.deepStrictEqual(reply.body, plain.body, path)
        }
        // A refused question has no current representation either: its 400.
        assert.strictEqual((yield* raw("/v1/equides?limite=0", { headers: star })).status, 400)
      }))

    it.effect("errors carry the validators and the caching policy too (a 400 and a 404 are representations)", () =>
      Effect.gen(function*() {
        const invalid = yield* raw("/v1/equides?limite=0")
        assert.strictEqual(invalid.status, 400)
        assert.match(invalid.headers["etag"] ?? "", STRONG)
        assert.strictEqual(invalid.headers["cache-control"], CACHE_POLICY)
        const revalidated = yield* raw("/v1/equides?limite=0", { headers: { "if-none-match": invalid.headers["etag"]! } })
        assert.strictEqual(revalidated.status, 304)
      }))
  })

  layer(testServer(fromRecords(FAMILY), { settings: { responseCacheBytes: 0 } }))("no cache, probes", (it) => {
    it.effect("a probe's answer is kept once it has executed, though the response cache is off, and answered at admission: the pipeline's own", () =>
      Effect.gen(function*() {
        const gatekeeper = yield* Admission
        assert.isFalse(gatekeeper.cache.enabled)
        assert.strictEqual(gatekeeper.admit("GET", "/healthz", {}, "198.51.100.1").verdict, "probe")
        const first = yield* raw("/healthz")
        assert.strictEqual(first.status, 200)
        const kept = gatekeeper.admit("GET", "/healthz", {}, "198.51.100.1")
        assert.strictEqual(kept.verdict, "cached")
        assert.deepStrictEqual(Buffer.from(kept.kept?.body ?? new Uint8Array()), first.body)
        const second = yield* raw("/healthz")
        assert.deepStrictEqual(second.body, first.body)
        const { date: _, ...firstHeaders } = first.headers
        const { date: __, ...secondHeaders } = second.headers
        assert.deepStrictEqual(secondHeaders, firstHeaders)
        // The other probe is its own representation; the server's rehearsal always executes.
        assert.strictEqual(gatekeeper.admit("GET", "/readyz", {}, "198.51.100.1").verdict, "probe")
        assert.strictEqual(gatekeeper.admit("GET", "/healthz", {}, "198.51.100.1", true).verdict, "probe")
        // A client refusing identity gets the small body compressed, not the kept one as it is.
        const forced = yield* raw("/healthz", { headers: { "accept-encoding": "gzip, identity;q=0" } })
        assert.strictEqual(forced.headers["content-encoding"], "gzip")
        // Validators still answer 304.
        const revalidated = yield* raw("/healthz", { headers: { "if-none-match": first.headers["etag"] as string } })
        assert.strictEqual(revalidated.status, 304)
      }))
  })

  const cached = makeProbe()
  layer(testServer(fromRecords(FAMILY), { stats: instrumentedStats(cached) }))("response cache", (it) => {
    it.effect("a representation asked for again is kept from its second answer on, compressed no more", () =>
      Effect.gen(function*() {
        const first = yield* raw("/v1/stats", { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(cached.started, 1)
        yield* raw("/v1/stats", { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(cached.started, 2)
        const third = yield* raw("/v1/stats", { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(cached.started, 2)
        assert.deepStrictEqual(third.body, first.body)
        // Written by the front door, the kept answer is the pipeline's own, header for header.
        const { date: _, ...firstHeaders } = first.headers
        const { date: __, ...thirdHeaders } = third.headers
        assert.deepStrictEqual(thirdHeaders, firstHeaders)
        // Another coding is another representation.
        yield* raw("/v1/stats", { headers: { "accept-encoding": "br" } })
        yield* raw("/v1/stats", { headers: { "accept-encoding": "br" } })
        assert.strictEqual(cached.started, 4)
        yield* raw("/v1/stats", { method: "HEAD", headers: { "accept-encoding": "br" } })
        assert.strictEqual(cached.started, 4)
        // A kept representation exists: If-None-Match: * is its 304, from the cache.
        const star = yield* raw("/v1/stats", { headers: { "accept-encoding": "br", "if-none-match": "*" } })
        assert.strictEqual(star.status, 304)
        assert.strictEqual(star.body.length, 0)
        assert.strictEqual(cached.started, 4)
      }))

    it.effect("a small body kept as it is for a client accepting identity is not given to one refusing identity", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 3; i++) {
          const small = yield* raw(`/v1/equides/${SIRE}`, { headers: { "accept-encoding": "gzip" } })
          assert.isBelow(small.body.length, MIN_COMPRESSED_BYTES)
          assert.isUndefined(small.headers["content-encoding"])
        }
        const forced = yield* raw(`/v1/equides/${SIRE}`, { headers: { "accept-encoding": "gzip, identity;q=0" } })
        assert.strictEqual(forced.headers["content-encoding"], "gzip")
      }))
  })
})
