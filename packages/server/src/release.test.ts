/**
 * A release changes every validator (issue 25, item 1): two builds of the service on the same
 * data, differing by one byte of a source that shapes a body, give the same URI different ETags,
 * and one's ETag is no validator for the other (a 200, never a 304 over another build's bytes).
 */
import { assert, describe, it } from "@effect/vitest"
import { API_VERSION, fromRecords } from "@equides/domain"
import { codeDigest } from "@equides/ingest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HttpServer } from "effect/http"
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { BODY_SOURCES, Release, type ReleaseInfo } from "./release.ts"
import { FAMILY, SIRE } from "./testing/family.ts"
import { rawCall, testServer } from "./testing/server.ts"

const REPOSITORY = new URL("../../../", import.meta.url)

/** URIs of every answer path: the pipeline, the direct lane, the service routes, a page. */
const URIS = ["/v1/meta", "/", "/healthz", "/openapi.json", `/v1/equides/${SIRE}`, `/v1/equides/${SIRE}/pedigree`, "/v1/equides", "/v1/stats", "/explorer/"]

/** A server of `release` on the family's data, and its base URL. */
const serving = (release: ReleaseInfo) =>
  Effect.map(Layer.build(testServer(fromRecords(FAMILY), { release })), (context) => {
    const address = Context.get(context, HttpServer.HttpServer).address
    return address._tag === "UnixPathAddress" ? "" : `http://127.0.0.1:${address.port}`
  })

/** This repository's body sources copied, one byte of the list page's writer changed: another build's id. */
const buildWithOneByteChanged = (): string => {
  const scratch = mkdtempSync(join(tmpdir(), "equides-release-"))
  try {
    const copy = join(scratch, "repository")
    for (const path of BODY_SOURCES) cpSync(new URL(path, REPOSITORY), join(copy, path), { recursive: true })
    const root = pathToFileURL(`${copy}/`)
    assert.strictEqual(codeDigest(root, BODY_SOURCES), codeDigest(REPOSITORY, BODY_SOURCES), "the copy is this build")
    const writer = join(copy, "packages/domain/src/api/resumePageBody.ts")
    const text = readFileSync(writer)
    text[text.length - 1] = text[text.length - 1] === 0x0a ? 0x20 : 0x0a
    writeFileSync(writer, text)
    return codeDigest(root, BODY_SOURCES)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

describe("the release in the ETag", () => {
  it.effect("this process's release: API_VERSION and the digest of the sources that shape bodies", () =>
    Effect.gen(function*() {
      const release = yield* Effect.provide(Effect.gen(function*() {
        return yield* Release
      }), Release.layer)
      assert.strictEqual(release.version, API_VERSION)
      assert.match(release.build, /^[0-9a-f]{64}$/)
      assert.strictEqual(release.build, codeDigest(REPOSITORY, BODY_SOURCES))
    }))

  it.effect("two builds differing by one byte of a body's writer: other ETags for every URI, and no 304 across", () =>
    Effect.scoped(Effect.gen(function*() {
      const current: ReleaseInfo = { version: API_VERSION, build: codeDigest(REPOSITORY, BODY_SOURCES) }
      const next: ReleaseInfo = { version: API_VERSION, build: buildWithOneByteChanged() }
      assert.notStrictEqual(next.build, current.build)
      const bumped: ReleaseInfo = { ...current, version: `${API_VERSION}-suivante` }
      const bases = [yield* serving(current), yield* serving(next), yield* serving(bumped), yield* serving(current)]
      for (const uri of URIS) {
        const [a, b, c, again] = yield* Effect.forEach(bases, (base) => rawCall(base, uri))
        for (const reply of [a, b, c, again]) assert.strictEqual(reply!.status, 200, uri)
        const etag = a!.headers["etag"]!
        assert.strictEqual(again!.headers["etag"], etag, `${uri}: the same release, the same validator`)
        assert.notStrictEqual(b!.headers["etag"], etag, `${uri}: another build`)
        assert.notStrictEqual(c!.headers["etag"], etag, `${uri}: another version`)
        // A cache holding the first build's body revalidates against the next build: a 200.
        const revalidated = yield* rawCall(bases[1]!, uri, { headers: { "if-none-match": etag } })
        assert.strictEqual(revalidated.status, 200, uri)
        assert.strictEqual((yield* rawCall(bases[3]!, uri, { headers: { "if-none-match": etag } })).status, 304, uri)
      }
    })))
})
