/**
 * What a release is, for the validators: the API version and a build id, a digest of the code that
 * shapes a body (`codeDigest`: the three packages' sources, tests aside, and the lock file that
 * pins the libraries writing JSON, compressing, rendering the reference). Both seed every ETag
 * (`admission/conditional.ts`): a release that may change a body's bytes (a new field, a fixed
 * writer, another library) changes every validator, so no cache revalidates an old body into a
 * 304, and during a rolling restart two versions never serve different bytes under one ETag.
 * Computed once at start (16–67 ms measured on the shared 2-core machine, beside a load of seconds).
 */
import { API_VERSION } from "@equides/domain"
import { codeDigest } from "@equides/ingest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface ReleaseInfo {
  /** `API_VERSION`. */
  readonly version: string
  /** The build id: SHA-256 (hex) of the sources that shape bodies. */
  readonly build: string
}

/** The repository's root, from this file (`packages/server/src/release.ts`). */
const REPOSITORY = new URL("../../../", import.meta.url)

/** The sources whose change may change a body: every package's code and the pinned libraries. */
export const BODY_SOURCES: ReadonlyArray<string> = ["packages/domain/src", "packages/ingest/src", "packages/server/src", "package-lock.json"]

export class Release extends Context.Service<Release, ReleaseInfo>()("@equides/server/Release") {
  /** This process's release: its API version and the digest of the sources it runs. */
  static readonly layer: Layer.Layer<Release> = Layer.effect(
    Release,
    Effect.sync(() => ({ version: API_VERSION, build: codeDigest(REPOSITORY, BODY_SOURCES) }))
  )
}
