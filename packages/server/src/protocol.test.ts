/**
 * Every answer in the contract, those written outside the router included: `Host` missing or
 * repeated, an unmet `Expect`, `CONNECT`, parse errors on a `HEAD`; one URI per resource
 * (non-canonical paths and invalid percent-encodings refused, never aliased); `Allow` of a 405;
 * the security headers of the HTML pages. Through the real Node server, on raw sockets where a
 * client library would not send the request.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { equideNotFound as unknownId, fromRecords } from "@equides/domain"
import * as Effect from "effect/Effect"
import { targetProblem } from "./admission/requestTarget.ts"
import { DESIGN_EXPOSED_HEADERS as EXPOSED_HEADERS } from "./testing/spec.ts"
import { FAMILY, SIRE } from "./testing/family.ts"
import { raw, rawSocket, serverUrl, testServer } from "./testing/server.ts"

interface Parsed {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The first response of a raw exchange. */
const parse = (answer: string): Parsed => {
  const end = answer.indexOf("\r\n\r\n")
  const [statusLine, ...lines] = answer.slice(0, end).split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.from(answer.slice(end + 4), "latin1").toString("utf8") }
}

/** A problem with the headers every response carries. */
const assertProblem = (reply: Parsed, status: number, type: string, what: string) => {
  assert.strictEqual(reply.status, status, what)
  assert.strictEqual(reply.headers["content-type"], "application/problem+json", what)
  assert.strictEqual(reply.headers["x-content-type-options"], "nosniff", what)
  assert.strictEqual(reply.headers["referrer-policy"], "no-referrer", what)
  assert.strictEqual(reply.headers["access-control-allow-origin"], "*", what)
  assert.strictEqual(reply.headers["access-control-expose-headers"], EXPOSED_HEADERS, what)
  assert.include(reply.headers["vary"] ?? "", "Accept-Encoding", what)
  if (reply.body !== "") assert.include(JSON.parse(reply.body), { type: `/documentation#${type}`, status }, what)
}

describe("targetProblem", () => {
  const served = (path: string) =>
    path === "/v1/meta" || path === "/v1/search" ? path : path.startsWith("/v1/equides/") ? "/v1/equides/:id" : undefined
  it("takes canonical targets as they are", () => {
    for (const url of ["/", "/v1/meta", "/v1/search?q=%C3%A9t%C3%A9+x&limite=5", "/v1/search?q=a%2Bb", "/v1/equides?nom=%25"]) {
      assert.isUndefined(targetProblem(url, served), url)
    }
  })
  it("names the canonical path of a non-canonical one when it is served", () => {
    for (const url of ["//v1/meta", "/v1//meta", "/v1/meta/", "/v1/%6Deta", "/v1/meta//?x=1"]) {
      const problem = targetProblem(url, served)
      assert.include(problem, { status: 404, indice: "chemin canonique : /v1/meta" }, url)
    }
    assert.include(targetProblem("/nulle/part/", served), { status: 404, indice: "GET / publie les routes servies et les gabarits d'URL" })
    // An escaped id is a malformed id: the body of an unknown one.
    assert.strictEqual(targetProblem("/v1/equides/%41AAAAAAAAAAAAAAAAAAAAA", served), unknownId)
    assert.include(targetProblem("/v1/equides/AAAAAAAAAAAAAAAAAAAAAA/", served), { indice: "chemin canonique : /v1/equides/AAAAAAAAAAAAAAAAAAAAAA" })
  })
  it("refuses encodings that do not decode, naming the parameter in the query", () => {
    for (const url of ["/v1/%zz", "/v1/meta%C0%AE", "/%ED%A0%80", "/v1/meta%"]) {
      assert.include(targetProblem(url, served), { status: 400, type: "/documentation#erreur-requete-invalide" }, url)
    }
    for (const [url, parametre] of [["/v1/search?q=%zz", "q"], ["/v1/search?limite=1&q=%C0%AE", "q"], ["/v1/search?q=a&x%ED%A0%80", "query"], ["/v1/search?q=%E9", "q"]]) {
      assert.include(targetProblem(url!, served), { status: 400, type: "/documentation#erreur-parametre-invalide", parametre }, url)
    }
  })
})

layer(testServer(fromRecords(FAMILY)))("the protocol", (it) => {
  it.effect("HTTP/1.1 without Host, or with two, is a 400 problem; HTTP/1.0 needs none", () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      for (const request of ["GET /v1/meta HTTP/1.1\r\n\r\n", "GET /v1/meta HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"]) {
        const reply = parse(yield* rawSocket(base, request))
        assertProblem(reply, 400, "erreur-requete-invalide", request)
        assert.include(JSON.parse(reply.body).detail, "Host")
        assert.strictEqual(reply.headers["connection"], "close")
      }
      assert.strictEqual(parse(yield* rawSocket(base, "GET /v1/meta HTTP/1.0\r\n\r\n")).status, 200)
      const head = parse(yield* rawSocket(base, "HEAD /v1/meta HTTP/1.1\r\n\r\n"))
      assert.strictEqual(head.status, 400)
      assert.strictEqual(head.body, "")
    }))

  it.effect("an Expect other than 100-continue is a 417 problem; 100-continue is met", () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      const reply = parse(yield* rawSocket(base, "GET /v1/meta HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n"))
      assertProblem(reply, 417, "erreur-requete-invalide", "Expect")
      const continued = yield* rawSocket(base, "GET /v1/meta HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
      assert.match(continued, /^HTTP\/1\.1 (100 Continue\r\n\r\nHTTP\/1\.1 )?200 /)
    }))

  it.effect("CONNECT is a 405 problem with Allow, not a dropped connection", () =>
    Effect.gen(function*() {
      const reply = parse(yield* rawSocket(yield* serverUrl, "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n"))
      assertProblem(reply, 405, "erreur-requete-invalide", "CONNECT")
      assert.strictEqual(reply.headers["allow"], "GET, HEAD, OPTIONS")
    }))

  it.effect("what Node's parser refuses is a problem with Vary, and a HEAD gets no body", () =>
    Effect.gen(function*() {
      const base = yield* serverUrl
      const bad = parse(yield* rawSocket(base, "GET /v1/meta HTTP/1.1\r\nHost: a\r\nX: \x01\r\n\r\n"))
      assertProblem(bad, 400, "erreur-requete-invalide", "bad header")
      const head = parse(yield* rawSocket(base, "HEAD /v1/meta HTTP/1.1\r\nHost: a\r\nX: \x01\r\n\r\n"))
      assertProblem(head, 400, "erreur-requete-invalide", "bad header on HEAD")
      assert.strictEqual(head.body, "")
      assert.strictEqual(head.headers["content-length"], bad.headers["content-length"])
      const tooLong = parse(yield* rawSocket(base, `HEAD /${"a".repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`))
      assertProblem(tooLong, 431, "erreur-requete-invalide", "431 on HEAD")
      assert.strictEqual(tooLong.body, "")
      assert.strictEqual((yield* raw("/healthz")).status, 200)
    }))

  it.effect("a 405 allows OPTIONS too, since OPTIONS is answered", () =>
    Effect.gen(function*() {
      const reply = yield* raw("/v1/meta", { method: "POST" })
      assert.strictEqual(reply.status, 405)
      assert.strictEqual(reply.headers["allow"], "GET, HEAD, OPTIONS")
      assert.strictEqual((yield* raw("/v1/meta", { method: "OPTIONS" })).status, 204)
    }))

  it.effect("non-canonical paths are 404 problems naming the canonical one, never aliases with their own ETag", () =>
    Effect.gen(function*() {
      const canonical = yield* raw("/v1/meta")
      assert.strictEqual(canonical.status, 200)
      for (const path of ["//v1/meta", "/v1//meta", "/v1/meta/", "/v1/%6Deta", "/v1/meta/?x=1"]) {
        for (const method of ["GET", "HEAD"]) {
          const reply = yield* raw(path, { method })
          assert.strictEqual(reply.status, 404, `${method} ${path}`)
          assert.notStrictEqual(reply.headers["etag"], canonical.headers["etag"])
          if (method === "GET") assert.include(JSON.parse(reply.body.toString("utf8")), { indice: "chemin canonique : /v1/meta" }, path)
          else assert.strictEqual(reply.body.length, 0)
        }
      }
      assert.strictEqual((yield* raw("/v1//search?q=jap")).status, 404)
      assert.strictEqual((yield* raw(`/v1/equides/${SIRE}/`)).status, 404)
      assert.strictEqual((yield* raw("/v1/stats/")).status, 404)
      // Not a preflight either.
      assert.strictEqual((yield* raw("/v1/%6Deta", { method: "OPTIONS" })).status, 404)
    }))

  it.effect("invalid percent-encodings are 400 problems, never read as literal text", () =>
    Effect.gen(function*() {
      for (const path of ["/v1/%zz", "/v1/search%C0%AE", "/v1/%ED%A0%80"]) {
        const reply = yield* raw(path)
        assert.strictEqual(reply.status, 400, path)
        assert.include(JSON.parse(reply.body.toString("utf8")), { type: "/documentation#erreur-requete-invalide" }, path)
      }
      for (const value of ["%zz", "%C0%AE", "%ED%A0%80", "ab%"]) {
        const reply = yield* raw(`/v1/search?q=${value}`)
        assert.strictEqual(reply.status, 400, value)
        assert.include(JSON.parse(reply.body.toString("utf8")), { type: "/documentation#erreur-parametre-invalide", parametre: "q" }, value)
      }
      assert.strictEqual((yield* raw("/v1/search?q=%C3%A9clair")).status, 200)
    }))

  it.effect("HTML pages forbid framing and every resource of another origin, and hold no inline code", () =>
    Effect.gen(function*() {
      const pages = [yield* raw("/", { headers: { accept: "text/html" } }), yield* raw("/documentation"), yield* raw("/explorer/stats")]
      for (const page of pages) {
        assert.strictEqual(page.status, 200)
        assert.match(page.headers["content-type"] ?? "", /^text\/html/)
        const policy = page.headers["content-security-policy"] ?? ""
        assert.match(policy, /^default-src 'self';/)
        assert.include(policy, "frame-ancestors 'none'")
        assert.notInclude(policy, "unsafe-inline")
        assert.notMatch(policy, /(script|style)-src/)
        assert.strictEqual(page.headers["x-frame-options"], "DENY")
        const html = page.body.toString("utf8")
        // Styles and scripts are files of this origin: no inline script or style, no handler attribute.
        assert.notMatch(html, /<script>|<script [^>]*>[^<]|<style|\sstyle=|\son[a-z]+=/i)
        assert.match(html, /<link rel="stylesheet" href="\/explorer\/static\/explorer\.[0-9a-f]{12}\.css">/)
      }
      const json = yield* raw("/v1/meta")
      assert.isUndefined(json.headers["content-security-policy"])
    }))
})
